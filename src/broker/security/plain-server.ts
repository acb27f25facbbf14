/**
 * SASL/PLAIN (RFC 4616) as Kafka's PlainSaslServer checks it: one token,
 * `authzid NUL authcid NUL password`, against the users of the listener's PlainLoginModule.
 */
import type { Crypto } from "../../ports/index.js";
import {
  DIFFERENT_AUTHORIZATION_ID,
  invalidCredentialsMessage,
  type SaslServerExchange,
  type SaslStep,
} from "./sasl-mechanism.js";

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

export class PlainServerExchange implements SaslServerExchange {
  private isDone = false;

  constructor(
    private readonly users: ReadonlyMap<string, string>,
    private readonly crypto: Crypto,
    private readonly isReauthentication: boolean,
  ) {}

  evaluate(token: Uint8Array): SaslStep {
    const generic = {
      kind: "failed",
      message: invalidCredentialsMessage("PLAIN", this.isReauthentication),
    } as const;
    if (this.isDone) return generic;
    this.isDone = true;
    let text: string;
    try {
      text = decoder.decode(token);
    } catch {
      return generic;
    }
    const parts = text.split("\u0000");
    if (parts.length !== 3) return generic;
    const [authorizationId, username, password] = parts as [string, string, string];
    if (username === "") return failed("Authentication failed: username not specified");
    if (password === "") return failed("Authentication failed: password not specified");
    const expected = this.users.get(username);
    // The comparison takes the same time whatever the password, so that it tells nothing.
    const given = encoder.encode(password);
    const known = encoder.encode(expected ?? "");
    const matches = expected !== undefined && this.crypto.equalInConstantTime(given, known);
    if (!matches) return failed("Authentication failed: Invalid username or password");
    if (authorizationId !== "" && authorizationId !== username) {
      return failed(DIFFERENT_AUTHORIZATION_ID);
    }
    return { kind: "complete", token: new Uint8Array(0), user: username };
  }
}

function failed(message: string): SaslStep {
  return { kind: "failed", message };
}
