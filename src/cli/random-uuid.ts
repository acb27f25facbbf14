/**
 * `sluice random-uuid`: prints a new cluster id the way Kafka's storage tool does, 22
 * characters of URL-safe base64 encoding a random version 4 Uuid.
 */
import { uuidFromRandomBytes, uuidToBase64, type Uuid } from "../common/index.js";
import type { Random } from "../ports/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";

export const RANDOM_UUID_USAGE = "usage: sluice random-uuid";

/** How many draws are tried before giving up; a reserved draw has odds of about 2^-6 each. */
const DRAWS_MAX = 1000;

/**
 * A random version 4 Uuid that Kafka would hand out: draws again, as Kafka's Uuid.randomUuid
 * does, when the draw is reserved or its base64 form starts with "-".
 */
export function newRandomUuid(random: Random): Uuid {
  for (let draw = 0; draw < DRAWS_MAX; draw++) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuid;
  }
  throw new Error(`no usable Uuid in ${DRAWS_MAX} random draws; the random source is broken`);
}

/** Runs `sluice random-uuid` with the arguments after the command name. */
export function randomUuid(
  args: readonly string[],
  io: CommandOutput & { readonly random: Random },
): number {
  if (args.length > 0) {
    io.error(RANDOM_UUID_USAGE);
    return EXIT.usage;
  }
  io.write(uuidToBase64(newRandomUuid(io.random)));
  return EXIT.ok;
}
