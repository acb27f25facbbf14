/**
 * One SASL exchange on the server side, as Kafka's SaslServer: tokens in, tokens out, until it
 * completes with the user it authenticated or fails. A failure carries the message Kafka sends
 * the client in SaslAuthenticate's error_message.
 */

export type SaslStep =
  | { readonly kind: "challenge"; readonly token: Uint8Array }
  | { readonly kind: "complete"; readonly token: Uint8Array; readonly user: string }
  | { readonly kind: "failed"; readonly message: string };

export interface SaslServerExchange {
  evaluate(token: Uint8Array): SaslStep;
}

/**
 * Kafka's answer when a mechanism fails with a plain SaslException: it names the phase and the
 * mechanism only, never the user (SaslServerAuthenticator.handleSaslToken).
 */
export function invalidCredentialsMessage(mechanism: string, isReauthentication: boolean): string {
  const phase = isReauthentication ? "re-authentication" : "authentication";
  return (
    `Authentication failed during ${phase} due to invalid credentials with SASL mechanism ` +
    mechanism
  );
}

export const DIFFERENT_AUTHORIZATION_ID =
  "Authentication failed: Client requested an authorization id that is different from username";
