/**
 * The batches of one append input, checked again before they are written: the framing (whole v2
 * batches only, within `max.message.bytes` and `segment.bytes`, CRCs for a follower's), then
 * offsets assigned and stamped in place (leader) or checked (follower). Pure.
 */
import { iterateBatches, type BatchError, type RecordBatchHeader } from "../../protocol/index.js";
import type { AppendRefusal } from "./log-errors.js";
import type { AppendedBatch } from "./segment-indexing.js";

/** A batch of the input with its header view (over the input bytes). */
export interface FramedBatch extends AppendedBatch {
  readonly header: RecordBatchHeader;
  readonly partitionLeaderEpoch: number;
  /** The input the batch lies in (at offsetInInput). */
  readonly input: Uint8Array;
}

/** The outcome of a step that may refuse the input. */
export type Planned<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly refusal: AppendRefusal };

const refuse = (refusal: AppendRefusal): { ok: false; refusal: AppendRefusal } => ({
  ok: false,
  refusal,
});

/** What framing checks besides the structure of the batches. */
export interface FramingLimits {
  readonly maxMessageBytes: number | undefined;
  readonly segmentBytes: number;
  readonly isCrcChecked: boolean;
}

/**
 * The batches of `records`, which must hold complete v2 batches only. `maxMessageBytes` caps each
 * batch (leaders only: Kafka lets followers take what their leader took); `isCrcChecked` checks
 * CRCs too (followers: the leader's bytes crossed the network since they were validated).
 */
export function frameInput(records: Uint8Array, limits: FramingLimits): Planned<FramedBatch[]> {
  const batches: FramedBatch[] = [];
  for (const entry of iterateBatches(records, { maxBatchBytes: 0x7fffffff })) {
    const { position } = entry;
    const corrupt = (error: BatchError): Planned<never> =>
      refuse({ kind: "corruptInput", position, error });
    switch (entry.kind) {
      case "legacy":
        return corrupt({ kind: "legacyMagic", magic: entry.magic });
      case "corrupt":
        return corrupt(entry.error);
      case "partial": {
        const { neededBytes, availableBytes } = entry;
        return corrupt({ kind: "truncated", neededBytes, availableBytes });
      }
      case "batch": {
        const refusal = refusalOf(entry.header, position, limits);
        if (refusal !== undefined) return refuse(refusal);
        batches.push(framed(entry.header, position, records));
      }
    }
  }
  return { ok: true, value: batches };
}

/** Why a well-framed batch is refused all the same, or undefined. */
function refusalOf(
  header: RecordBatchHeader,
  position: number,
  limits: FramingLimits,
): AppendRefusal | undefined {
  const { sizeInBytes, lastOffsetDelta, recordCount } = header;
  const { maxMessageBytes, segmentBytes } = limits;
  if (maxMessageBytes !== undefined && sizeInBytes > maxMessageBytes) {
    return { kind: "batchTooLarge", sizeInBytes, maxMessageBytes };
  }
  if (sizeInBytes > segmentBytes) return { kind: "inputTooLarge", sizeInBytes, segmentBytes };
  if (lastOffsetDelta < 0) {
    const detail = "negative lastOffsetDelta";
    const error = { kind: "recordCountMismatch", recordCount, lastOffsetDelta, detail } as const;
    return { kind: "corruptInput", position, error };
  }
  if (limits.isCrcChecked && !header.isCrcValid()) {
    const error = {
      kind: "crcMismatch",
      storedCrc: header.crc,
      computedCrc: header.computeCrc(),
    } as const;
    return { kind: "corruptInput", position, error };
  }
  return undefined;
}

function framed(header: RecordBatchHeader, offsetInInput: number, input: Uint8Array): FramedBatch {
  return {
    header,
    input,
    offsetInInput,
    sizeInBytes: header.sizeInBytes,
    baseOffset: header.baseOffset,
    lastOffset: header.lastOffset,
    maxTimestamp: header.maxTimestamp,
    partitionLeaderEpoch: header.partitionLeaderEpoch,
  };
}

/**
 * Assigns offsets from `logEndOffset` and stamps each batch in place with its base offset and
 * `leaderEpoch` (and, for a LogAppendTime topic, `logAppendTimeMs`), as Kafka's leader does;
 * the CRC stays valid for the first two, and is recomputed for the third.
 */
export function assignOffsets(
  batches: readonly FramedBatch[],
  options: {
    readonly logEndOffset: number;
    readonly leaderEpoch: number;
    readonly logAppendTimeMs: number | undefined;
  },
): Planned<FramedBatch[]> {
  let nextOffset = options.logEndOffset;
  const stamped: FramedBatch[] = [];
  for (const batch of batches) {
    const { header } = batch;
    const lastOffset = nextOffset + header.lastOffsetDelta;
    if (!Number.isSafeInteger(lastOffset)) return refuse({ kind: "offsetOverflow", lastOffset });
    header.stampBaseOffset(nextOffset);
    header.stampPartitionLeaderEpoch(options.leaderEpoch);
    if (options.logAppendTimeMs !== undefined)
      header.stampMaxTimestamp("logAppendTime", options.logAppendTimeMs);
    stamped.push(framed(header, batch.offsetInInput, batch.input));
    nextOffset = lastOffset + 1;
  }
  return { ok: true, value: stamped };
}

/** Checks a follower's offsets: the first at or past `logEndOffset`, then strictly increasing. */
export function checkFollowerOffsets(
  batches: readonly FramedBatch[],
  logEndOffset: number,
): Planned<FramedBatch[]> {
  const first = batches[0];
  if (first !== undefined && first.baseOffset < logEndOffset) {
    return refuse({ kind: "unexpectedAppendOffset", firstOffset: first.baseOffset, logEndOffset });
  }
  let nextOffset = logEndOffset;
  for (const batch of batches) {
    if (batch.baseOffset < nextOffset) {
      return refuse({
        kind: "offsetsOutOfOrder",
        position: batch.offsetInInput,
        baseOffset: batch.baseOffset,
      });
    }
    nextOffset = batch.lastOffset + 1;
  }
  return { ok: true, value: [...batches] };
}
