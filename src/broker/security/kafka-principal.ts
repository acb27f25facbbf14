/**
 * Who a connection is: Kafka's KafkaPrincipal. Every request's context carries the principal of
 * its connection (`HandlerContext.connection.principal`), set once the connection authenticated;
 * an authorizer reads it there and nowhere else.
 */

/** An authenticated identity, as Kafka's KafkaPrincipal ("User:alice"). */
export interface KafkaPrincipal {
  readonly principalType: string;
  readonly name: string;
}

/**
 * Kafka's KafkaPrincipal.ANONYMOUS: the principal of a PLAINTEXT connection, of an SSL one whose
 * client sent no certificate, and of a SASL connection before it authenticated.
 */
export const ANONYMOUS_PRINCIPAL: KafkaPrincipal = Object.freeze({
  principalType: "User",
  name: "ANONYMOUS",
});

/** The principal of user `name`, as Kafka's DefaultKafkaPrincipalBuilder names SASL users. */
export function userPrincipal(name: string): KafkaPrincipal {
  return Object.freeze({ principalType: "User", name });
}

/** "User:alice", as Kafka prints a principal. */
export function principalText(principal: KafkaPrincipal): string {
  return `${principal.principalType}:${principal.name}`;
}
