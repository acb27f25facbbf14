/**
 * The node's TLS and SASL at run time: PEM material read from the config's text or files (again
 * on each reload), the options of each listener's socket server, and the security of the
 * connections the node opens to the inter-broker and controller listeners.
 */
import type { ListenerSecurityOptions, ScramCredential, ScramMechanism } from "../broker/index.js";
import { NodeAuthorizer, SCRAM_MECHANISM_TYPES } from "../broker/index.js";
import type { ClientSecurity } from "../client/index.js";
import type { MetadataImage } from "../metadata/index.js";
import { scramCredentialKey } from "../metadata/index.js";
import type { Crypto, FileSystem, TlsClientSettings, TlsServerSettings } from "../ports/index.js";
import { readTextFileIfExists } from "../storage/index.js";
import type { ClientSecurityConfig, PemSource, TlsSource } from "./config/security-settings.js";
import type { NodeConfig } from "./config/node-config.js";
import { NodeStartError, type PeerSecurity } from "./node-types.js";

async function pemText(fs: FileSystem, source: PemSource): Promise<string> {
  if ("text" in source) return source.text;
  const text = await readTextFileIfExists(fs, source.path);
  if (text === undefined) throw new NodeStartError(`TLS file ${source.path} does not exist`);
  return text;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of `text` whose label satisfies `isWanted`, joined. */
function blocks(text: string, isWanted: (label: string) => boolean): string {
  return [...text.matchAll(PEM_BLOCK)]
    .filter((match) => isWanted(match[1] as string))
    .map((match) => match[0])
    .join("\n");
}

/** The key and chain of a keystore: a PEM keystore file holds both, Kafka's way. */
async function keystoreOf(fs: FileSystem, source: TlsSource) {
  if (source.keystore === undefined) return undefined;
  const keyText = await pemText(fs, source.keystore.key);
  const chainText = await pemText(fs, source.keystore.chain);
  const key = blocks(keyText, (label) => label.endsWith("PRIVATE KEY"));
  const certificateChain = blocks(chainText, (label) => label === "CERTIFICATE");
  if (key === "") throw new NodeStartError("the TLS keystore holds no private key");
  if (certificateChain === "") throw new NodeStartError("the TLS keystore holds no certificate");
  return { key, certificateChain };
}

export async function tlsServerSettingsOf(
  fs: FileSystem,
  source: TlsSource,
): Promise<TlsServerSettings> {
  const keystore = await keystoreOf(fs, source);
  if (keystore === undefined) throw new NodeStartError("a TLS listener needs a keystore");
  const trusted =
    source.truststore === undefined ? undefined : await pemText(fs, source.truststore);
  return {
    ...keystore,
    keyPassword: source.keyPassword,
    trustedCertificates: trusted,
    clientAuth: source.clientAuth,
  };
}

async function tlsClientSettingsOf(fs: FileSystem, source: TlsSource): Promise<TlsClientSettings> {
  const keystore = await keystoreOf(fs, source);
  const trusted =
    source.truststore === undefined ? undefined : await pemText(fs, source.truststore);
  return {
    ...(keystore ?? {}),
    keyPassword: source.keyPassword,
    trustedCertificates: trusted,
    verifyHostname: source.verifyHostname,
  };
}

/** The socket server options of listener `name`. */
export async function listenerOptionsOf(
  fs: FileSystem,
  config: NodeConfig,
  name: string,
): Promise<ListenerSecurityOptions> {
  const listener = config.security.listeners.get(name);
  if (listener === undefined) throw new NodeStartError(`listener ${name} has no security`);
  const tls = listener.tls === undefined ? undefined : await tlsServerSettingsOf(fs, listener.tls);
  return { security: listener.security, tls };
}

/** The TLS settings of every TLS listener, by name. */
export async function listenerTlsOf(
  fs: FileSystem,
  config: NodeConfig,
): Promise<Map<string, TlsServerSettings>> {
  const settings = new Map<string, TlsServerSettings>();
  for (const [name, listener] of config.security.listeners) {
    if (listener.tls !== undefined) settings.set(name, await tlsServerSettingsOf(fs, listener.tls));
  }
  return settings;
}

/** The client security of connections to a listener secured as `config` says. */
export async function clientSecurityOf(
  fs: FileSystem,
  config: ClientSecurityConfig | undefined,
  crypto: Crypto | undefined,
): Promise<ClientSecurity> {
  if (config === undefined) return {};
  const tls = config.tls === undefined ? undefined : await tlsClientSettingsOf(fs, config.tls);
  return { tls, sasl: config.sasl, crypto };
}

/** Loads the client security of the controller and inter-broker connections. */
export async function loadPeerSecurity(
  ports: { readonly fs: FileSystem; readonly crypto?: Crypto | undefined },
  config: NodeConfig,
): Promise<PeerSecurity> {
  return {
    controller: await clientSecurityOf(ports.fs, config.security.controller, ports.crypto),
    interBroker: await clientSecurityOf(ports.fs, config.security.interBroker, ports.crypto),
  };
}

/** The SCRAM credential of `user` in `image`, for the SASL sessions of a broker listener. */
export function scramCredentialIn(
  image: MetadataImage,
  mechanism: ScramMechanism,
  user: string,
): ScramCredential | undefined {
  const key = scramCredentialKey({ mechanism: SCRAM_MECHANISM_TYPES[mechanism], name: user });
  return image.security.scramCredentials.get(key);
}

/** Kafka's SecurityProtocol ids, as broker and controller registrations carry them. */
export const SECURITY_PROTOCOL_IDS = {
  PLAINTEXT: 0,
  SSL: 1,
  SASL_PLAINTEXT: 2,
  SASL_SSL: 3,
} as const;

/**
 * The node's authorizer over the ACLs of the image `image` returns (the broker's latest, or the
 * controller's committed one), or undefined when `authorizer.class.name` is empty. Until
 * `isLoaded` is true only super users are authorized.
 */
export function nodeAuthorizerOf(
  config: NodeConfig,
  image: () => MetadataImage,
  isLoaded?: () => boolean,
): NodeAuthorizer | undefined {
  if (config.authorizer === undefined) return undefined;
  return new NodeAuthorizer(() => image().security.acls, config.authorizer, isLoaded);
}
