/**
 * The security of each listener and of the connections a node opens, from Kafka's keys as each
 * listener sees them (`listener.name.<listener>.` overrides first): TLS material (PEM text or
 * PEM files, read when the listener opens and again on reload), `ssl.client.auth`, the mapping
 * rules, the SASL mechanisms and PlainLoginModule users, and the credentials this node logs in
 * with on the inter-broker and controller listeners.
 */
import {
  PLAIN_LOGIN_MODULE,
  SCRAM_LOGIN_MODULE,
  credentialsOf,
  parseJaasConfig,
  parseMappingRules,
  type JaasCredentials,
  type ListenerSecurity,
  type SecurityProtocol,
} from "../../broker/index.js";
import type { SaslCredentials } from "../../client/index.js";
import type { ConfigProblem } from "./config-types.js";
import { protocolMap, type ListenerSettings } from "./listener-rules.js";
import type { ConfigValues } from "./config-values.js";
import { SERVED_SASL_MECHANISMS } from "./definitions-security.js";

/** PEM material given as text or as a file to read. */
export type PemSource = { readonly text: string } | { readonly path: string };

/** Where a TLS listener or client finds its key, certificates and trusted certificates. */
export interface TlsSource {
  readonly keystore: { readonly key: PemSource; readonly chain: PemSource } | undefined;
  readonly keyPassword: string | undefined;
  readonly truststore: PemSource | undefined;
  readonly clientAuth: "none" | "requested" | "required";
  readonly verifyHostname: boolean;
}

export interface ListenerSecurityConfig {
  readonly security: ListenerSecurity;
  readonly tls: TlsSource | undefined;
}

/** How this node connects to a listener of another node. */
export interface ClientSecurityConfig {
  readonly securityProtocol: SecurityProtocol;
  readonly tls: TlsSource | undefined;
  readonly sasl: SaslCredentials | undefined;
}

type Problem = (key: string, message: string) => void;

/** The security of listener `name` with protocol `protocol`. */
export function listenerSecurityOf(
  all: ConfigValues,
  name: string,
  protocol: SecurityProtocol,
  problems: ConfigProblem[],
): ListenerSecurityConfig {
  const values = all.forListener(name);
  const problem: Problem = (key, message) =>
    problems.push({ key, source: values.source(key), message: `listener ${name}: ${message}` });
  const isTls = protocol === "SSL" || protocol === "SASL_SSL";
  const tls = isTls ? tlsSourceOf(values, problem, true) : undefined;
  let principalMappingRules;
  if (protocol === "SSL") {
    const rules = parseMappingRules(values.string("ssl.principal.mapping.rules"));
    if (rules.ok) principalMappingRules = rules.value;
    else problem("ssl.principal.mapping.rules", rules.message);
  }
  const isSasl = protocol === "SASL_PLAINTEXT" || protocol === "SASL_SSL";
  const sasl = isSasl ? saslOf(all, values, name, problem) : undefined;
  return { security: { securityProtocol: protocol, sasl, principalMappingRules }, tls };
}

function saslOf(all: ConfigValues, values: ConfigValues, name: string, problem: Problem) {
  const enabledMechanisms = values.list("sasl.enabled.mechanisms");
  const served: readonly string[] = SERVED_SASL_MECHANISMS;
  for (const mechanism of enabledMechanisms) {
    if (!served.includes(mechanism)) {
      problem("sasl.enabled.mechanisms", `${mechanism} is not served (${served.join(", ")})`);
    }
  }
  if (enabledMechanisms.length === 0) problem("sasl.enabled.mechanisms", "names no mechanism");
  let plainUsers = new Map<string, string>();
  if (enabledMechanisms.includes("PLAIN")) {
    const plain = jaasCredentialsOf(all, name, "PLAIN", problem);
    if (plain === undefined) {
      const key = `listener.name.${name.toLowerCase()}.plain.sasl.jaas.config`;
      problem(key, "must be set: PLAIN takes its users from PlainLoginModule's user_<name>");
    } else plainUsers = new Map(plain.users);
  }
  const reauthMs = values.number("connections.max.reauth.ms");
  const maxReauthMs = (mechanism: string): number => {
    const value = all.mechanismValue(name, mechanism, "connections.max.reauth.ms")?.value;
    return typeof value === "number" ? value : reauthMs;
  };
  return { enabledMechanisms, plainUsers, maxReauthMs };
}

/** The credentials of `mechanism`'s JAAS entry on listener `name`, or undefined when unset. */
export function jaasCredentialsOf(
  all: ConfigValues,
  name: string,
  mechanism: string,
  problem: Problem,
): JaasCredentials | undefined {
  const entry = all.mechanismValue(name, mechanism, "sasl.jaas.config");
  if (entry === undefined || typeof entry.value !== "string") return undefined;
  const key = `listener.name.${name.toLowerCase()}.${mechanism.toLowerCase()}.sasl.jaas.config`;
  const parsed = parseJaasConfig(entry.value);
  if (!parsed.ok) {
    problem(key, parsed.message);
    return undefined;
  }
  const expected = mechanism === "PLAIN" ? PLAIN_LOGIN_MODULE : SCRAM_LOGIN_MODULE;
  const module = parsed.value.find((candidate) => candidate.className === expected);
  if (module === undefined) {
    problem(key, `must hold ${expected} for ${mechanism}`);
    return undefined;
  }
  return credentialsOf(module);
}

function tlsSourceOf(values: ConfigValues, problem: Problem, isServer: boolean): TlsSource {
  for (const key of ["ssl.keystore.type", "ssl.truststore.type"]) {
    const type = values.string(key);
    // With PEM text given, Kafka requires the type PEM; Sluice reads no JKS or PKCS12 store.
    if (type !== "PEM") problem(key, `is ${type}; Sluice reads PEM stores only (set PEM)`);
  }
  const keyText = values.stringOrNull("ssl.keystore.key");
  const chainText = values.stringOrNull("ssl.keystore.certificate.chain");
  const keystoreLocation = values.stringOrNull("ssl.keystore.location");
  let keystore: TlsSource["keystore"];
  if (keyText !== null && chainText !== null) {
    keystore = { key: { text: keyText }, chain: { text: chainText } };
    if (keystoreLocation !== null) {
      problem("ssl.keystore.location", "must not be set with ssl.keystore.key");
    }
  } else if (keystoreLocation !== null) {
    keystore = { key: { path: keystoreLocation }, chain: { path: keystoreLocation } };
  } else if (keyText !== null || chainText !== null) {
    problem("ssl.keystore.key", "and ssl.keystore.certificate.chain must be set together");
  } else if (isServer) {
    problem("ssl.keystore.location", "or ssl.keystore.key must give the listener a key");
  }
  const trustText = values.stringOrNull("ssl.truststore.certificates");
  const trustLocation = values.stringOrNull("ssl.truststore.location");
  const truststore: PemSource | undefined =
    trustText !== null
      ? { text: trustText }
      : trustLocation !== null
        ? { path: trustLocation }
        : undefined;
  const clientAuth = values.string("ssl.client.auth") as TlsSource["clientAuth"];
  if (isServer && clientAuth !== "none" && truststore === undefined) {
    problem("ssl.client.auth", `is ${clientAuth}: a truststore must say which clients to trust`);
  }
  return {
    keystore,
    keyPassword: values.stringOrNull("ssl.key.password") ?? undefined,
    truststore,
    clientAuth,
    verifyHostname: values.string("ssl.endpoint.identification.algorithm") !== "",
  };
}

/**
 * How this node logs in to listener `name` (the inter-broker or a controller listener) with
 * protocol `protocol` and SASL `mechanism`: TLS with the listener's stores, PLAIN or SCRAM with
 * the `username` and `password` of that mechanism's JAAS entry on the listener.
 */
export function clientSecurityOf(
  all: ConfigValues,
  name: string,
  protocol: SecurityProtocol,
  mechanismKey: string,
  problems: ConfigProblem[],
): ClientSecurityConfig {
  const values = all.forListener(name);
  const problem: Problem = (key, message) =>
    problems.push({ key, source: values.source(key), message: `listener ${name}: ${message}` });
  const isTls = protocol === "SSL" || protocol === "SASL_SSL";
  const tls = isTls ? tlsSourceOf(values, problem, false) : undefined;
  if (protocol !== "SASL_PLAINTEXT" && protocol !== "SASL_SSL") {
    return { securityProtocol: protocol, tls, sasl: undefined };
  }
  const mechanism = SERVED_SASL_MECHANISMS.find((served) => served === all.string(mechanismKey));
  if (mechanism === undefined) {
    const served = SERVED_SASL_MECHANISMS.join(", ");
    problem(mechanismKey, `is ${all.string(mechanismKey)}; nodes log in with ${served}`);
    return { securityProtocol: protocol, tls, sasl: undefined };
  }
  // PlainLoginModule's or ScramLoginModule's username and password, as Kafka's login modules
  // give the node's own credentials.
  const credentials = jaasCredentialsOf(all, name, mechanism, problem);
  const { username, password } = credentials ?? {};
  if (username === undefined || password === undefined) {
    const key = `listener.name.${name.toLowerCase()}.${mechanism.toLowerCase()}.sasl.jaas.config`;
    problem(key, "needs username and password: the node logs in with them");
    return { securityProtocol: protocol, tls, sasl: undefined };
  }
  return { securityProtocol: protocol, tls, sasl: { mechanism, username, password } };
}

/** TLS and SASL: of each listener, and of the connections the node opens. */
export interface SecuritySettings {
  /** By listener name, for every listener in `listeners`. */
  readonly listeners: ReadonlyMap<string, ListenerSecurityConfig>;
  /** To other brokers' inter-broker listener; undefined on a controller-only node. */
  readonly interBroker: ClientSecurityConfig | undefined;
  /** To the controllers' listener (the first of controller.listener.names). */
  readonly controller: ClientSecurityConfig;
}

/** The security of every listener and of the inter-broker and controller connections. */
export function securityOf(
  values: ConfigValues,
  listeners: ListenerSettings,
  problems: ConfigProblem[],
): SecuritySettings {
  const byName = new Map<string, ListenerSecurityConfig>();
  for (const listener of listeners.listeners) {
    byName.set(
      listener.name,
      listenerSecurityOf(values, listener.name, listener.securityProtocol, problems),
    );
  }
  const protocols = protocolMap(values);
  const interBrokerName = listeners.interBrokerListenerName;
  const interBrokerProtocol =
    interBrokerName === undefined ? undefined : protocols.get(interBrokerName);
  const interBroker =
    interBrokerName === undefined || interBrokerProtocol === undefined
      ? undefined
      : clientSecurityOf(
          values,
          interBrokerName,
          interBrokerProtocol,
          "sasl.mechanism.inter.broker.protocol",
          problems,
        );
  const controllerName = listeners.controllerListenerNames[0] ?? "CONTROLLER";
  const controller = clientSecurityOf(
    values,
    controllerName,
    protocols.get(controllerName) ?? "PLAINTEXT",
    "sasl.mechanism.controller.protocol",
    problems,
  );
  return { listeners: byName, interBroker, controller };
}

/**
 * A controller of a quorum of several voters cannot log in to the others with SCRAM: they check
 * SCRAM logins against the credentials they have committed, and none is committed before a
 * leader is elected, which needs those logins (Kafka's controllers fail the same way).
 */
export function checkControllerScram(
  controller: ClientSecurityConfig,
  problem: (key: string, message: string) => void,
): void {
  const mechanism = controller.sasl?.mechanism;
  if (mechanism === undefined || mechanism === "PLAIN") return;
  problem(
    "sasl.mechanism.controller.protocol",
    `is ${mechanism}, but the controllers of a quorum log in to each other before any SCRAM ` +
      "credential is committed; use PLAIN on the controller listener",
  );
}
