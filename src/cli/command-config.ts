/**
 * `--command-config FILE`: the client properties Kafka's tools read with that option, for the
 * connections a command opens. `security.protocol` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL);
 * for SASL, `sasl.mechanism` (PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512) with the username and
 * password of `sasl.jaas.config`'s PlainLoginModule or ScramLoginModule; for TLS, PEM stores as
 * Kafka 2.7+ reads them: `ssl.truststore.location` or `ssl.truststore.certificates`,
 * `ssl.keystore.location` or `ssl.keystore.key` with `ssl.keystore.certificate.chain` (mutual
 * TLS), `ssl.key.password`, and `ssl.endpoint.identification.algorithm` (empty: the server's
 * host name is not checked). The file's other client properties are ignored, as Kafka's tools
 * ignore those that do not concern them.
 */
import {
  credentialsOf,
  parseJaasConfig,
  PLAIN_LOGIN_MODULE,
  SCRAM_LOGIN_MODULE,
} from "../broker/index.js";
import type { ClientSecurity, SaslCredentials } from "../client/index.js";
import {
  loadClientSecurity,
  SECURITY_PROTOCOLS,
  type SecurityProtocol,
  type TlsSource,
} from "../main/index.js";
import type { Crypto, FileSystem } from "../ports/index.js";
import { parseProperties, readTextFileIfExists } from "../storage/index.js";

/** A problem of the file, worded for the command's error line. */
export class CommandConfigProblem extends Error {}

const MECHANISMS: readonly SaslCredentials["mechanism"][] = [
  "PLAIN",
  "SCRAM-SHA-256",
  "SCRAM-SHA-512",
];

function refused(key: string, message: string): CommandConfigProblem {
  return new CommandConfigProblem(`--command-config: ${key} ${message}`);
}

/**
 * The security of the connections of a command given `--command-config path`; throws a
 * CommandConfigProblem when the file is missing or wrong.
 */
export async function commandSecurityOf(
  ports: { readonly fileSystem: FileSystem; readonly crypto?: Crypto | undefined },
  path: string,
): Promise<ClientSecurity> {
  const text = await readTextFileIfExists(ports.fileSystem, path);
  if (text === undefined)
    throw new CommandConfigProblem(`--command-config: ${path} does not exist`);
  const properties = parseProperties(text);
  const protocolText = (properties.get("security.protocol") ?? "PLAINTEXT").toUpperCase();
  const securityProtocol = SECURITY_PROTOCOLS.find((known) => known === protocolText);
  if (securityProtocol === undefined) {
    throw refused("security.protocol", `is ${protocolText}; use ${SECURITY_PROTOCOLS.join(", ")}`);
  }
  const isTls = securityProtocol === "SSL" || securityProtocol === "SASL_SSL";
  const tls = isTls ? tlsSourceOf(properties) : undefined;
  const sasl = saslOf(properties, securityProtocol);
  try {
    return await loadClientSecurity(
      ports.fileSystem,
      { securityProtocol, tls, sasl },
      ports.crypto,
    );
  } catch (error) {
    throw new CommandConfigProblem(`--command-config: ${(error as Error).message}`);
  }
}

function saslOf(
  properties: ReadonlyMap<string, string>,
  protocol: SecurityProtocol,
): SaslCredentials | undefined {
  if (protocol !== "SASL_PLAINTEXT" && protocol !== "SASL_SSL") return undefined;
  // Kafka's default mechanism, GSSAPI, is not one Sluice serves.
  const named = properties.get("sasl.mechanism") ?? "GSSAPI";
  const mechanism = MECHANISMS.find((known) => known === named);
  if (mechanism === undefined) {
    throw refused("sasl.mechanism", `is ${named}; use ${MECHANISMS.join(", ")}`);
  }
  const jaas = properties.get("sasl.jaas.config");
  if (jaas === undefined) throw refused("sasl.jaas.config", "is needed for a SASL login");
  const parsed = parseJaasConfig(jaas);
  if (!parsed.ok) throw refused("sasl.jaas.config", parsed.message);
  const expected = mechanism === "PLAIN" ? PLAIN_LOGIN_MODULE : SCRAM_LOGIN_MODULE;
  const module = parsed.value.find((candidate) => candidate.className === expected);
  if (module === undefined) throw refused("sasl.jaas.config", `must hold ${expected}`);
  const { username, password } = credentialsOf(module);
  if (username === undefined || password === undefined) {
    throw refused("sasl.jaas.config", "needs username and password");
  }
  return { mechanism, username, password };
}

function tlsSourceOf(properties: ReadonlyMap<string, string>): TlsSource {
  for (const key of ["ssl.keystore.type", "ssl.truststore.type"]) {
    const type = properties.get(key);
    if (type !== undefined && type.toUpperCase() !== "PEM") {
      throw refused(key, `is ${type}; Sluice reads PEM stores only`);
    }
  }
  const keyText = properties.get("ssl.keystore.key");
  const chainText = properties.get("ssl.keystore.certificate.chain");
  const keystoreLocation = properties.get("ssl.keystore.location");
  let keystore: TlsSource["keystore"];
  if (keyText !== undefined && chainText !== undefined) {
    keystore = { key: { text: keyText }, chain: { text: chainText } };
  } else if (keyText !== undefined || chainText !== undefined) {
    throw refused("ssl.keystore.key", "and ssl.keystore.certificate.chain go together");
  } else if (keystoreLocation !== undefined) {
    keystore = { key: { path: keystoreLocation }, chain: { path: keystoreLocation } };
  }
  const trustText = properties.get("ssl.truststore.certificates");
  const trustLocation = properties.get("ssl.truststore.location");
  return {
    keystore,
    keyPassword: properties.get("ssl.key.password"),
    truststore:
      trustText !== undefined
        ? { text: trustText }
        : trustLocation === undefined
          ? undefined
          : { path: trustLocation },
    clientAuth: "none",
    verifyHostname: (properties.get("ssl.endpoint.identification.algorithm") ?? "https") !== "",
  };
}
