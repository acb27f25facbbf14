/**
 * The listener rules Kafka's KafkaConfig enforces in KRaft mode: names unique and mapped to a
 * security protocol, controller listeners where the roles need them and nowhere else, advertised
 * listeners defaulting to listeners and never the meta-address 0.0.0.0, and an inter-broker
 * listener that is advertised.
 */
import {
  parseEach,
  parseListener,
  parseProtocolMapping,
  type ListenerAddress,
} from "./addresses.js";
import type { SecurityProtocol } from "./addresses.js";
import type { ConfigProblem } from "./config-types.js";
import type { ConfigValues } from "./config-values.js";

/** A listener with the security protocol its name maps to. */
export interface ListenerConfig extends ListenerAddress {
  readonly securityProtocol: SecurityProtocol;
}

/** The listeners of a node after the rules. */
export interface ListenerSettings {
  readonly listeners: readonly ListenerConfig[];
  /** What brokers publish: advertised.listeners (or listeners) without controller listeners. */
  readonly advertisedListeners: readonly ListenerConfig[];
  readonly controllerListenerNames: readonly string[];
  /** The listener brokers use between themselves; undefined on a controller-only node. */
  readonly interBrokerListenerName: string | undefined;
}

export interface Roles {
  readonly isBroker: boolean;
  readonly isController: boolean;
}

type Result = { ok: true; value: ListenerSettings } | { ok: false; problems: ConfigProblem[] };

export function resolveListeners(values: ConfigValues, roles: Roles): Result {
  const problems: ConfigProblem[] = [];
  const problem = (key: string, message: string): void => {
    problems.push({ key, source: values.source(key), message });
  };
  const protocols = protocolMap(values);
  const listeners = withProtocols(values, "listeners", protocols, problem);
  const advertisedKey =
    values.listOrNull("advertised.listeners") === null ? "listeners" : "advertised.listeners";
  const advertised =
    advertisedKey === "listeners"
      ? listeners
      : withProtocols(values, advertisedKey, protocols, problem);
  const controllerNames = values
    .list("controller.listener.names")
    .map((name) => name.toUpperCase());
  if (listeners === undefined || advertised === undefined) return { ok: false, problems };
  checkUnique(listeners, (message) => problem("listeners", message));
  checkControllerListeners(listeners, controllerNames, roles, problem);
  const advertisedListeners = advertised.filter(
    (listener) => !controllerNames.includes(listener.name),
  );
  for (const listener of advertisedListeners) {
    if (listener.host === "0.0.0.0") {
      problem(advertisedKey, `${listener.name} advertises the non-routable address 0.0.0.0`);
    }
  }
  // As Kafka: without inter.broker.listener.name, brokers use the listener named after
  // security.inter.broker.protocol; setting both is refused.
  const namedListener = values.stringOrNull("inter.broker.listener.name");
  if (namedListener !== null && values.isSet("security.inter.broker.protocol")) {
    problem("inter.broker.listener.name", "must not be set with security.inter.broker.protocol");
  }
  const interBrokerListenerName = roles.isBroker
    ? (namedListener ?? values.string("security.inter.broker.protocol")).toUpperCase()
    : undefined;
  if (interBrokerListenerName !== undefined) {
    if (controllerNames.includes(interBrokerListenerName)) {
      problem("inter.broker.listener.name", "must not be a controller listener");
    } else if (!advertisedListeners.some((listener) => listener.name === interBrokerListenerName)) {
      problem(
        "inter.broker.listener.name",
        `${interBrokerListenerName} must be a listener name in ${advertisedKey}`,
      );
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const value = {
    listeners,
    advertisedListeners,
    controllerListenerNames: controllerNames,
    interBrokerListenerName,
  };
  return { ok: true, value };
}

/**
 * The protocol of each listener name. As Kafka does, when the map is left at its default a
 * controller listener name missing from it is PLAINTEXT.
 */
export function protocolMap(values: ConfigValues): Map<string, SecurityProtocol> {
  const parsed = parseEach(values.list("listener.security.protocol.map"), parseProtocolMapping);
  const map = new Map(parsed.ok ? parsed.value : []);
  if (!values.isSet("listener.security.protocol.map")) {
    for (const name of values.list("controller.listener.names")) {
      if (!map.has(name.toUpperCase())) map.set(name.toUpperCase(), "PLAINTEXT");
    }
  }
  return map;
}

function withProtocols(
  values: ConfigValues,
  key: string,
  protocols: ReadonlyMap<string, SecurityProtocol>,
  problem: (key: string, message: string) => void,
): ListenerConfig[] | undefined {
  const parsed = parseEach(values.list(key), parseListener);
  if (!parsed.ok) return undefined;
  const result: ListenerConfig[] = [];
  for (const listener of parsed.value) {
    const securityProtocol = protocols.get(listener.name);
    if (securityProtocol === undefined) {
      problem(key, `listener ${listener.name} has no entry in listener.security.protocol.map`);
    } else {
      result.push({ ...listener, securityProtocol });
    }
  }
  return result;
}

function checkUnique(
  listeners: readonly ListenerConfig[],
  report: (message: string) => void,
): void {
  const names = new Set<string>();
  const ports = new Set<number>();
  for (const listener of listeners) {
    if (names.has(listener.name)) report(`names listener ${listener.name} twice`);
    // Port 0 asks the system for any free port, so two of them do not collide.
    if (listener.port !== 0 && ports.has(listener.port)) report(`uses port ${listener.port} twice`);
    names.add(listener.name);
    ports.add(listener.port);
  }
}

function checkControllerListeners(
  listeners: readonly ListenerConfig[],
  controllerNames: readonly string[],
  roles: Roles,
  problem: (key: string, message: string) => void,
): void {
  const key = "controller.listener.names";
  const names = listeners.map((listener) => listener.name);
  if (controllerNames.length === 0) {
    problem(key, "must name at least one listener in KRaft mode");
    return;
  }
  if (roles.isController && !controllerNames.some((name) => names.includes(name))) {
    problem(key, "must name a listener in listeners when the node is a controller");
  }
  if (roles.isController && !roles.isBroker) {
    const others = names.filter((name) => !controllerNames.includes(name));
    if (others.length > 0) {
      problem(
        "listeners",
        `a controller-only node may list only controller listeners, not ${others.join(", ")}`,
      );
    }
  }
  if (roles.isBroker && !roles.isController) {
    const found = controllerNames.filter((name) => names.includes(name));
    if (found.length > 0) {
      problem(
        "listeners",
        `a broker-only node must not list controller listener ${found.join(", ")}`,
      );
    }
  }
}
