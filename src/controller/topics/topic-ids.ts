/** New topic ids: random version-4 Uuids, drawn again when reserved or already in use. */
import { assert, uuidFromRandomBytes } from "../../common/index.js";
import type { Uuid } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";

/** Draws beyond this mean the random source is broken, not unlucky. */
const TOPIC_ID_DRAWS_MAX = 100;

/** A topic id no topic of the image (nor of `taken`) has. */
export function newTopicId(image: MetadataImage, random: Random, taken: ReadonlySet<Uuid>): Uuid {
  for (let draw = 0; draw < TOPIC_ID_DRAWS_MAX; draw += 1) {
    const id = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (id !== undefined && !image.topics.byId.has(id) && !taken.has(id)) return id;
  }
  assert(false, `no free topic id in ${TOPIC_ID_DRAWS_MAX} draws`);
}
