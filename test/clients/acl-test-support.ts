/**
 * What the ACL tests share: the node's properties (every listener SASL/PLAIN but a PLAINTEXT one
 * for `sluice acls`, the StandardAuthorizer, User:admin and User:ANONYMOUS super users) and the
 * reading of kafkajs errors.
 */
import type { SecurityPorts } from "./security-node.js";

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
