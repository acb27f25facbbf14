/**
 * What the loader publishes and to whom: each new image goes, with the delta that made it and a
 * manifest saying where it came from, to every registered MetadataPublisher in order.
 */
import type { MetadataImage, MetadataProvenance } from "./images.js";
import type { MetadataDelta } from "./metadata-delta.js";

/** Where a published image came from: committed log batches, or a whole snapshot. */
export type LoaderManifest =
  | {
      readonly kind: "logDelta";
      readonly provenance: MetadataProvenance;
      /** Batches whose records this delta holds (0 for the part before a transaction). */
      readonly numBatches: number;
      /** Bytes of those batches' records. */
      readonly numBytes: number;
    }
  | { readonly kind: "snapshot"; readonly provenance: MetadataProvenance };

/** A consumer of metadata images: the metadata cache, the replica manager, the coordinators. */
export interface MetadataPublisher {
  /** A unique name, used to unregister and in error messages. */
  readonly name: string;
  /**
   * Called with each new image, in log order, synchronously. `delta` holds what changed from the
   * previous image this publisher saw (for a newly registered publisher: from the empty image).
   */
  onMetadataUpdate(delta: MetadataDelta, image: MetadataImage, manifest: LoaderManifest): void;
}
