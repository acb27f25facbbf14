/**
 * The incarnation id: a random Uuid drawn from the Random port at every process start, which
 * tells the controller apart two processes that claim the same broker id.
 */
import { uuidFromRandomBytes, type Uuid } from "../../common/index.js";
import type { Random } from "../../ports/index.js";

const UUID_BYTES = 16;

/** A new random Uuid, drawn again while it is one Kafka reserves. */
export function newIncarnationId(random: Random): Uuid {
  for (;;) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(UUID_BYTES)));
    if (uuid !== undefined) return uuid;
  }
}
