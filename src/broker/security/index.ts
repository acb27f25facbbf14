export {
  ANONYMOUS_PRINCIPAL,
  principalText,
  userPrincipal,
  type KafkaPrincipal,
} from "./kafka-principal.js";
export {
  PLAINTEXT_SECURITY,
  connectionPrincipal,
  isSaslProtocol,
  isTlsProtocol,
  type ListenerSecurity,
  type SecurityProtocol,
} from "./listener-security.js";
export { applyMappingRules, parseMappingRules, type MappingRules } from "./ssl-principal-mapper.js";
export {
  PLAIN_LOGIN_MODULE,
  SCRAM_LOGIN_MODULE,
  credentialsOf,
  parseJaasConfig,
  type JaasCredentials,
  type JaasLoginModule,
} from "./jaas-config.js";
export {
  SaslSession,
  type AuthenticateAnswer,
  type HandshakeAnswer,
  type SaslListenerSettings,
  type SaslSessionPorts,
} from "./sasl-session.js";
export {
  SCRAM_ITERATIONS_MAX,
  SCRAM_ITERATIONS_MIN,
  SCRAM_MECHANISMS,
  SCRAM_MECHANISM_TYPES,
  encodeSaslName,
  fromBase64,
  hashOf,
  scramAttributes,
  scramCredentialOf,
  scramMechanismOfType,
  toBase64,
  xor,
  type ScramCredential,
  type ScramMechanism,
} from "./scram.js";
export { PlainServerExchange } from "./plain-server.js";
export { ScramServerExchange, type ScramCredentialLookup } from "./scram-server.js";
export type { SaslServerExchange, SaslStep } from "./sasl-mechanism.js";
export {
  ALLOW_EVERYTHING,
  NodeAuthorizer,
  type RequestAuthorization,
} from "./request-authorization.js";
