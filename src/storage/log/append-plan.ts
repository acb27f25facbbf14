/**
 * The pure plan of a group of appends: how many waiting appends one group takes, each input's
 * batches framed and given their offsets in arrival order (`append-batches.ts`), and what each
 * accepted input gets once written. Nothing here writes a file; a refusal leaves the log
 * untouched.
 */
import type { ProducerStateManager } from "../producer-state/index.js";
import type { LogConfig } from "./log-config.js";
import type { AppendRefusal } from "./log-errors.js";
import {
  assignOffsets,
  checkFollowerOffsets,
  frameInput,
  type FramedBatch,
  type Planned,
} from "./append-batches.js";
import {
  checkProducerBatches,
  recordProducerBatches,
  type AppendedCompletion,
  type AppendVerification,
  type LeaderOrigin,
} from "./producer-append.js";

/** What an append wrote, as Kafka's LogAppendInfo. */
export interface AppendResult {
  /** The first offset written, or -1 when the input held no batch. */
  readonly firstOffset: number;
  /** The last offset written, or -1 when the input held no batch. */
  readonly lastOffset: number;
  /** The largest batch maxTimestamp of the input (-1 when none has one). */
  readonly maxTimestamp: number;
  /** The last offset of the batch holding maxTimestamp (Kafka's shallow offset of it). */
  readonly offsetOfMaxTimestamp: number;
  /** The time stamped on the batches for a LogAppendTime topic, else -1. */
  readonly logAppendTime: number;
  /** The bytes written. */
  readonly validBytes: number;
  readonly batchCount: number;
}

/** What a written append gets: its result, and the offset to wait for durability up to, if any. */
export interface WrittenAppend {
  readonly result: AppendResult;
  readonly flushTo: number | undefined;
}

/**
 * What each of the `accepted` inputs, now written, gets. With `flush.messages` unflushed
 * messages or more, each input that wrote batches waits until the log end is durable.
 */
export function writtenAppends(
  accepted: readonly PlannedInput[],
  log: {
    readonly logEndOffset: number;
    readonly flushedOffset: number;
    readonly flushMessages: number;
  },
): WrittenAppend[] {
  const unflushedMessages = log.logEndOffset - log.flushedOffset;
  const flushTo = unflushedMessages >= log.flushMessages ? log.logEndOffset : undefined;
  return accepted.map((each) => ({
    result: appendResultOf(each.batches, each.logAppendTime),
    flushTo: each.batches.length === 0 ? undefined : flushTo,
  }));
}

/** The append result of `batches` (non-empty), as Kafka's LogAppendInfo reports it. */
export function appendResultOf(
  batches: readonly FramedBatch[],
  logAppendTime: number,
): AppendResult {
  let maxTimestamp = -1;
  let offsetOfMaxTimestamp = -1;
  let validBytes = 0;
  for (const batch of batches) {
    if (batch.maxTimestamp > maxTimestamp) {
      maxTimestamp = batch.maxTimestamp;
      offsetOfMaxTimestamp = batch.lastOffset;
    }
    validBytes += batch.sizeInBytes;
  }
  const first = batches[0];
  const last = batches[batches.length - 1];
  return {
    firstOffset: first === undefined ? -1 : first.baseOffset,
    lastOffset: last === undefined ? -1 : last.lastOffset,
    maxTimestamp,
    offsetOfMaxTimestamp:
      offsetOfMaxTimestamp < 0 && last !== undefined ? last.lastOffset : offsetOfMaxTimestamp,
    logAppendTime,
    validBytes,
    batchCount: batches.length,
  };
}

/** Who appends: the leader (assigns offsets, stamps its epoch) or a follower (keeps offsets). */
export type AppendMode =
  ({ readonly kind: "leader" } & LeaderAppend) | { readonly kind: "follower" };

/** How a leader appends: with its epoch, for whom, and under which KIP-890 check, if any. */
export interface LeaderAppend {
  readonly leaderEpoch: number;
  readonly origin: LeaderOrigin;
  readonly verification?: AppendVerification;
}

/** The most bytes one group of coalesced appends writes; the rest wait for the next group. */
export const APPEND_GROUP_BYTES_MAX = 4 * 1024 * 1024;
export const APPEND_GROUP_COUNT_MAX = 1024;

/**
 * How many of the `waiting` appends, oldest first, the next group takes: the oldest always,
 * then those that keep the group within APPEND_GROUP_COUNT_MAX and APPEND_GROUP_BYTES_MAX.
 */
export function appendGroupSize(waiting: readonly { readonly records: Uint8Array }[]): number {
  let count = 0;
  let bytes = 0;
  while (count < waiting.length && count < APPEND_GROUP_COUNT_MAX) {
    const next = waiting[count] as { readonly records: Uint8Array };
    if (count > 0 && bytes + next.records.length > APPEND_GROUP_BYTES_MAX) break;
    bytes += next.records.length;
    count++;
  }
  return count;
}

/** The topic configs planning reads. */
type AppendConfig = Pick<
  LogConfig,
  "maxMessageBytes" | "segmentBytes" | "messageTimestampType" | "producerIdExpirationMs"
>;

/** One input of a group, as its caller gave it. */
export interface AppendInput {
  readonly records: Uint8Array;
  readonly mode: AppendMode;
}

/** An accepted input: its batches, stamped, and the time stamped on them (or -1). */
export interface PlannedInput {
  readonly batches: readonly FramedBatch[];
  readonly logAppendTime: number;
  /** The transactions the input's end markers completed (for the aborted-transactions index). */
  readonly completed: readonly AppendedCompletion[];
}

/** A group's inputs split by the outcome of their planning, each list in arrival order. */
export interface PlannedGroup<I extends AppendInput> {
  readonly accepted: readonly (PlannedInput & { readonly input: I })[];
  readonly refused: readonly { readonly input: I; readonly refusal: AppendRefusal }[];
}

/**
 * Frames each input and assigns its offsets (leader) or checks them (follower), in order, from
 * `logEndOffset`: each accepted input starts where the one before it ends, and a refused one
 * takes no offsets. A LogAppendTime topic's leader batches get `nowMs`. `producers` checks each
 * leader input's producer batches first (a retry is refused as `duplicateSequence`) and takes
 * in every accepted batch.
 */
export function planGroup<I extends AppendInput>(
  inputs: readonly I[],
  at: {
    readonly config: AppendConfig;
    readonly logEndOffset: number;
    readonly nowMs: number;
  },
  producers: ProducerStateManager,
): PlannedGroup<I> {
  producers.maybeRemoveExpired(at.nowMs, at.config.producerIdExpirationMs);
  const accepted: (PlannedInput & { readonly input: I })[] = [];
  const refused: { readonly input: I; readonly refusal: AppendRefusal }[] = [];
  let logEndOffset = at.logEndOffset;
  for (const input of inputs) {
    const planned = planInput(input, { ...at, logEndOffset, producers });
    if (!planned.ok) {
      refused.push({ input, refusal: planned.refusal });
      continue;
    }
    const { batches, logAppendTime } = planned.value;
    const completed = recordProducerBatches(batches, producers);
    accepted.push({ input, batches, logAppendTime, completed });
    const last = batches[batches.length - 1];
    if (last !== undefined) logEndOffset = last.lastOffset + 1;
  }
  return { accepted, refused };
}

function planInput(
  input: AppendInput,
  at: {
    readonly config: AppendConfig;
    readonly logEndOffset: number;
    readonly nowMs: number;
    readonly producers: ProducerStateManager;
  },
): Planned<Omit<PlannedInput, "completed">> {
  const { config } = at;
  const { mode } = input;
  const isLeader = mode.kind === "leader";
  const limits = {
    maxMessageBytes: isLeader ? config.maxMessageBytes : undefined,
    segmentBytes: config.segmentBytes,
    isCrcChecked: !isLeader,
  };
  const framed = frameInput(input.records, limits);
  if (!framed.ok) return framed;
  const logAppendTime = isLeader && config.messageTimestampType === "LogAppendTime" ? at.nowMs : -1;
  if (framed.value.length === 0) return { ok: true, value: { batches: [], logAppendTime } };
  const producerRefusal =
    mode.kind === "leader" ? checkProducerBatches(framed.value, at.producers, mode) : undefined;
  if (producerRefusal !== undefined) return { ok: false, refusal: producerRefusal };
  const checked =
    mode.kind === "follower"
      ? checkFollowerOffsets(framed.value, at.logEndOffset)
      : assignOffsets(framed.value, {
          logEndOffset: at.logEndOffset,
          leaderEpoch: mode.leaderEpoch,
          logAppendTimeMs: logAppendTime < 0 ? undefined : logAppendTime,
        });
  if (!checked.ok) return checked;
  return { ok: true, value: { batches: checked.value, logAppendTime } };
}
