/**
 * What the ACL tests share: the node's properties (every listener SASL/PLAIN but a PLAINTEXT one
 * for `sluice acls`, the StandardAuthorizer, User:admin and User:ANONYMOUS super users), kafkajs
 * clients logged in as a user, bob's topic ACLs, and the reading of kafkajs errors.
 */
import { after, before } from "node:test";
import kafkajs from "kafkajs";
import { withConnection } from "../../src/client/index.js";
import { SecurityNode, type SecurityPorts } from "./security-node.js";
import { clientPorts } from "./sluice-process.js";

/** The node's server.properties. */
export function aclProperties(dir: string, ports: SecurityPorts): string {
  const jaas =
    "org.apache.kafka.common.security.plain.PlainLoginModule required " +
    'username="admin" password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";';
  return [
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${ports.controller}`,
    `listeners=SASL_PLAINTEXT://127.0.0.1:${ports.saslPlaintext},` +
      `CONTROLLER://127.0.0.1:${ports.controller},PLAINTEXT://127.0.0.1:${ports.ssl}`,
    `advertised.listeners=SASL_PLAINTEXT://127.0.0.1:${ports.saslPlaintext},` +
      `PLAINTEXT://127.0.0.1:${ports.ssl}`,
    "controller.listener.names=CONTROLLER",
    "listener.security.protocol.map=CONTROLLER:SASL_PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT," +
      "PLAINTEXT:PLAINTEXT",
    "inter.broker.listener.name=SASL_PLAINTEXT",
    "sasl.enabled.mechanisms=PLAIN",
    "sasl.mechanism.inter.broker.protocol=PLAIN",
    "sasl.mechanism.controller.protocol=PLAIN",
    `listener.name.sasl_plaintext.plain.sasl.jaas.config=${jaas}`,
    `listener.name.controller.plain.sasl.jaas.config=${jaas}`,
    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users=User:admin;User:ANONYMOUS",
    `log.dirs=${dir}/data`,
    `sluice.http.listener=127.0.0.1:${ports.http}`,
    "",
  ].join("\n");
}

/** The Kafka error name kafkajs carries on an error or on its cause. */
export function errorTypeOf(error: unknown): string {
  const { type, cause, errors, message } = error as {
    type?: string;
    cause?: { type?: string };
    errors?: { type?: string }[];
    message?: string;
  };
  return type ?? cause?.type ?? errors?.[0]?.type ?? String(message);
}

/** NONE when `work` succeeds (or a describeConfigs answer carries no error), else its error. */
export async function outcomeOf(work: Promise<unknown>): Promise<string> {
  try {
    const answer = (await work) as { resources?: { errorCode?: number }[] } | undefined;
    const errorCode = answer?.resources?.[0]?.errorCode ?? 0;
    return errorCode === 0 ? "NONE" : `code ${errorCode}`;
  } catch (error) {
    return errorTypeOf(error);
  }
}

/** kafkajs over the node's SASL/PLAIN listener, logged in as `username`. */
export function kafkaAs(
  ports: SecurityPorts,
  login: { readonly username: string; readonly password: string },
  retries = 0,
): kafkajs.Kafka {
  return new kafkajs.Kafka({
    brokers: [`127.0.0.1:${ports.saslPlaintext}`],
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries },
    sasl: { mechanism: "plain", ...login },
  });
}

export const ADMIN_LOGIN = { username: "admin", password: "admin-secret" } as const;
export const BOB_LOGIN = { username: "bob", password: "bob-secret" } as const;

/** Runs `work` with a connected admin client of `kafka`, disconnected after. */
export async function withAdmin<T>(
  kafka: kafkajs.Kafka,
  work: (admin: kafkajs.Admin) => Promise<T>,
): Promise<T> {
  const client = kafka.admin();
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.disconnect();
  }
}

/** An ACL of User:bob on the topic (or prefix) `resourceName`. */
export function bobAcl(
  resourceName: string,
  operation: kafkajs.AclOperationTypes,
  options: { readonly prefixed?: boolean; readonly deny?: boolean } = {},
) {
  const { AclResourceTypes, AclPermissionTypes, ResourcePatternTypes } = kafkajs;
  return {
    resourceType: AclResourceTypes.TOPIC,
    resourceName,
    resourcePatternType:
      options.prefixed === true ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
    principal: "User:bob",
    host: "*",
    operation,
    permissionType: options.deny === true ? AclPermissionTypes.DENY : AclPermissionTypes.ALLOW,
  };
}

/** A connection of the project's client to the SASL/PLAIN listener, logged in as `login`. */
export function asUser<T>(
  ports: SecurityPorts,
  login: { readonly username: string; readonly password: string },
  action: Parameters<typeof withConnection<T>>[2],
): Promise<T> {
  const address = { host: "127.0.0.1", port: ports.saslPlaintext };
  const security = { sasl: { mechanism: "PLAIN", ...login } } as const;
  return withConnection(address, clientPorts(), action, { requestTimeoutMs: 15_000, security });
}

/** The node of a test file: started before its tests with aclProperties, destroyed after. */
export function aclNodeOfFile() {
  let node: SecurityNode | undefined;
  before(async () => {
    node = await SecurityNode.start(aclProperties);
  });
  after(async () => {
    if (node !== undefined) await node.destroy();
  });
  const ports = (): SecurityPorts => {
    if (node === undefined) throw new Error("the node has not started");
    return node.ports;
  };
  return {
    ports,
    admin: () => kafkaAs(ports(), ADMIN_LOGIN),
    bob: (retries = 0) => kafkaAs(ports(), BOB_LOGIN, retries),
  };
}
