/**
 * What a newly elected controller writes before it serves. First a NoOpRecord in its own epoch:
 * once that commits, every record of earlier epochs is committed and replayed, so the committed
 * image is the whole state (Raft lets a leader count entries of earlier epochs as committed only
 * through one of its own). If that image has no metadata.version, the log was empty: this is the
 * first start of a new cluster, and the bootstrap records follow as a second batch.
 *
 *   claim ──committed, image has a metadata.version──────────────▶ serve
 *     └────committed, no metadata.version──▶ bootstrap ──committed──▶ serve
 */
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { bootstrapRecords } from "../features/index.js";
import type { BootstrapOptions } from "../features/index.js";

/** The two activation batches: the claim of the epoch, then (new cluster only) the bootstrap. */
export type ActivationStep = "claim" | "bootstrap";

/** A NoOpRecord (KIP-835), which changes nothing but moves the committed offset. */
export function noOpRecord(): MetadataRecord {
  return { type: MetadataRecordType.NoOpRecord, version: 0, data: {} };
}

export function activationRecords(
  step: ActivationStep,
  bootstrap: BootstrapOptions,
): MetadataRecord[] {
  return step === "claim" ? [noOpRecord()] : bootstrapRecords(bootstrap);
}

/** What follows once the batch of `step` committed, `committed` being the image it left. */
export function stepAfter(step: ActivationStep, committed: MetadataImage): "bootstrap" | "serve" {
  if (step === "bootstrap") return "serve";
  return committed.features.metadataVersion === undefined ? "bootstrap" : "serve";
}
