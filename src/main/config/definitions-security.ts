/**
 * Configuration keys of TLS and SASL, named and defaulted as Kafka's. Every key of this file
 * but the inter-broker and controller choices may also be set for one listener as
 * `listener.name.<listener>.<key>` (lower-case listener name), which wins over the plain key;
 * a mechanism's JAAS entry is only ever per listener:
 * `listener.name.<listener>.<mechanism>.sasl.jaas.config`.
 */
import type { ConfigDefinition } from "./config-types.js";
import { atLeast, oneOf } from "./validators.js";

/** The SASL mechanisms Sluice serves. */
export const SERVED_SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;

/** The keys that `listener.name.<listener>.` may prefix. */
export const LISTENER_SCOPED_KEYS: ReadonlySet<string> = new Set([
  "ssl.keystore.type",
  "ssl.keystore.location",
  "ssl.keystore.key",
  "ssl.keystore.certificate.chain",
  "ssl.key.password",
  "ssl.truststore.type",
  "ssl.truststore.location",
  "ssl.truststore.certificates",
  "ssl.client.auth",
  "ssl.principal.mapping.rules",
  "sasl.enabled.mechanisms",
  "connections.max.reauth.ms",
]);

const storeTypes = oneOf(["JKS", "PKCS12", "PEM"]);

export const securityDefinitions: readonly ConfigDefinition[] = [
  {
    name: "ssl.keystore.type",
    type: "string",
    defaultValue: "JKS",
    validator: storeTypes,
    importance: "medium",
    description:
      "The format of the key store; Sluice reads PEM only, so SSL listeners need PEM here.",
  },
  {
    name: "ssl.keystore.location",
    type: "string",
    defaultValue: null,
    importance: "high",
    description:
      "A PEM file holding the private key and the certificate chain, read at start and on reload.",
  },
  {
    name: "ssl.keystore.key",
    type: "password",
    defaultValue: null,
    importance: "high",
    description: "The private key as PEM text (PKCS#8, encrypted with ssl.key.password or not).",
  },
  {
    name: "ssl.keystore.certificate.chain",
    type: "password",
    defaultValue: null,
    importance: "high",
    description: "The certificate chain as PEM text, leaf first.",
  },
  {
    name: "ssl.key.password",
    type: "password",
    defaultValue: null,
    importance: "high",
    description: "The password of an encrypted private key.",
  },
  {
    name: "ssl.truststore.type",
    type: "string",
    defaultValue: "JKS",
    validator: storeTypes,
    importance: "medium",
    description: "The format of the trust store; Sluice reads PEM only.",
  },
  {
    name: "ssl.truststore.location",
    type: "string",
    defaultValue: null,
    importance: "high",
    description: "A PEM file of the certificates trusted to sign peers' certificates.",
  },
  {
    name: "ssl.truststore.certificates",
    type: "password",
    defaultValue: null,
    importance: "high",
    description: "The trusted certificates as PEM text.",
  },
  {
    name: "ssl.client.auth",
    type: "string",
    defaultValue: "none",
    validator: oneOf(["required", "requested", "none"]),
    importance: "medium",
    description:
      "Whether an SSL listener asks clients for a certificate (requested) or refuses them " +
      "without a trusted one (required).",
  },
  {
    name: "ssl.principal.mapping.rules",
    type: "string",
    defaultValue: "DEFAULT",
    importance: "low",
    description:
      "Rules (DEFAULT, RULE:pattern/replacement/[LU]) mapping a client certificate's " +
      "distinguished name to its principal name.",
  },
  {
    name: "ssl.endpoint.identification.algorithm",
    type: "string",
    defaultValue: "https",
    importance: "low",
    description:
      "https: this node checks the host name of the nodes it connects to against their " +
      "certificates; empty: it does not.",
  },
  {
    name: "security.inter.broker.protocol",
    type: "string",
    defaultValue: "PLAINTEXT",
    validator: oneOf(["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"]),
    importance: "medium",
    description:
      "The protocol between brokers when inter.broker.listener.name is not set: the broker " +
      "listener of that name is used.",
  },
  {
    name: "sasl.enabled.mechanisms",
    type: "list",
    defaultValue: ["GSSAPI"],
    importance: "medium",
    description:
      "The SASL mechanisms a SASL listener offers; Sluice serves PLAIN, SCRAM-SHA-256 and " +
      "SCRAM-SHA-512, so set it on SASL listeners.",
  },
  {
    name: "sasl.mechanism.inter.broker.protocol",
    type: "string",
    defaultValue: "GSSAPI",
    validator: oneOf(["GSSAPI", ...SERVED_SASL_MECHANISMS]),
    importance: "medium",
    description:
      "The mechanism brokers log in with to each other on a SASL listener: PLAIN, or SCRAM " +
      "with the username and password of the listener's ScramLoginModule entry.",
  },
  {
    name: "sasl.mechanism.controller.protocol",
    type: "string",
    defaultValue: "GSSAPI",
    validator: oneOf(["GSSAPI", ...SERVED_SASL_MECHANISMS]),
    importance: "medium",
    description:
      "The mechanism nodes log in with to a SASL controller listener. With SCRAM the " +
      "controllers check logins against their own metadata image (credentials from " +
      "`sluice format --add-scram`), so the controllers of a quorum of more than one voter " +
      "cannot log in to each other with it, as in Kafka: use PLAIN there.",
  },
  {
    name: "connections.max.reauth.ms",
    type: "long",
    defaultValue: 0,
    validator: atLeast(0),
    importance: "medium",
    description:
      "KIP-368: how long a SASL session lasts before the client must re-authenticate; 0 " +
      "turns expiry off.",
  },
];
