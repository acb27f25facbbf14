/**
 * What a listener's security protocol means for the connections it accepts: TLS or not (the
 * Network port does the handshake), SASL or not, and how a connection's principal is built, as
 * Kafka's DefaultKafkaPrincipalBuilder builds it.
 */
import { ANONYMOUS_PRINCIPAL, userPrincipal, type KafkaPrincipal } from "./kafka-principal.js";
import type { SaslListenerSettings } from "./sasl-session.js";
import { applyMappingRules, type MappingRules } from "./ssl-principal-mapper.js";

export type SecurityProtocol = "PLAINTEXT" | "SSL" | "SASL_PLAINTEXT" | "SASL_SSL";

export interface ListenerSecurity {
  readonly securityProtocol: SecurityProtocol;
  /** Set on SASL_PLAINTEXT and SASL_SSL listeners. */
  readonly sasl?: SaslListenerSettings | undefined;
  /** `ssl.principal.mapping.rules` of an SSL listener. */
  readonly principalMappingRules?: MappingRules | undefined;
}

export const PLAINTEXT_SECURITY: ListenerSecurity = Object.freeze({
  securityProtocol: "PLAINTEXT",
});

export function isSaslProtocol(protocol: SecurityProtocol): boolean {
  return protocol === "SASL_PLAINTEXT" || protocol === "SASL_SSL";
}

export function isTlsProtocol(protocol: SecurityProtocol): boolean {
  return protocol === "SSL" || protocol === "SASL_SSL";
}

/**
 * The principal of a new connection before any SASL exchange: on SSL, the certificate subject
 * through the mapping rules (ANONYMOUS without a certificate); elsewhere ANONYMOUS. Undefined
 * when no rule matches the subject: Kafka refuses such a connection.
 */
export function connectionPrincipal(
  security: ListenerSecurity,
  peerSubject: string | undefined,
): KafkaPrincipal | undefined {
  if (security.securityProtocol !== "SSL" || peerSubject === undefined) {
    return ANONYMOUS_PRINCIPAL;
  }
  const rules = security.principalMappingRules ?? [{ kind: "default" }];
  const name = applyMappingRules(rules, peerSubject);
  return name === undefined ? undefined : userPrincipal(name);
}
