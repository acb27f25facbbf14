/**
 * `sluice format --add-scram MECHANISM=[name=NAME,password=PASSWORD(,iterations=N)]`, as
 * `kafka-storage format --add-scram` bootstraps SCRAM users: each becomes a
 * UserScramCredentialRecord (random salt, Kafka's default of 4096 iterations) in the bootstrap
 * file, which the first active controller writes into the new metadata log.
 */
import {
  SCRAM_ITERATIONS_MAX,
  SCRAM_ITERATIONS_MIN,
  SCRAM_MECHANISMS,
  SCRAM_MECHANISM_TYPES,
  scramCredentialOf,
} from "../broker/index.js";
import type { Crypto, Random } from "../ports/index.js";
import type { UserScramCredentialRecord } from "../protocol/index.js";

const ENTRY = /^(SCRAM-SHA-256|SCRAM-SHA-512)=\[(.*)\]$/;
const SALT_BYTES = 32;

type Parsed = { ok: true; value: UserScramCredentialRecord[] } | { ok: false; message: string };

/** The credential records of the `--add-scram` values. */
export function scramCredentialsOf(
  values: readonly string[],
  ports: { readonly crypto: Crypto; readonly random: Random },
): Parsed {
  const records: UserScramCredentialRecord[] = [];
  for (const value of values) {
    const match = ENTRY.exec(value.trim());
    if (match === null) {
      const mechanisms = SCRAM_MECHANISMS.join(" or ");
      return {
        ok: false,
        message: `--add-scram ${value} is not ${mechanisms}=[name=…,password=…]`,
      };
    }
    const mechanism = match[1] as (typeof SCRAM_MECHANISMS)[number];
    const fields = new Map<string, string>();
    for (const part of (match[2] as string).split(",")) {
      const equals = part.indexOf("=");
      if (equals <= 0) return { ok: false, message: `--add-scram: "${part}" is not key=value` };
      fields.set(part.slice(0, equals).trim(), unquote(part.slice(equals + 1).trim()));
    }
    const name = fields.get("name");
    const password = fields.get("password");
    if (name === undefined || name === "" || password === undefined) {
      return { ok: false, message: `--add-scram ${value} needs name and password` };
    }
    const iterations = Number(fields.get("iterations") ?? SCRAM_ITERATIONS_MIN);
    if (
      !Number.isInteger(iterations) ||
      iterations < SCRAM_ITERATIONS_MIN ||
      iterations > SCRAM_ITERATIONS_MAX
    ) {
      const range = `${SCRAM_ITERATIONS_MIN}-${SCRAM_ITERATIONS_MAX}`;
      return { ok: false, message: `--add-scram: iterations must be ${range}` };
    }
    const salt = ports.random.fill(new Uint8Array(SALT_BYTES));
    const credential = scramCredentialOf(ports.crypto, mechanism, password, salt, iterations);
    records.push({ name, mechanism: SCRAM_MECHANISM_TYPES[mechanism], ...credential });
  }
  return { ok: true, value: records };
}

function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}
