/**
 * Appending offset records to a `__consumer_offsets` partition as its leader, and waiting until
 * the high watermark covers them (acks=-1), with Kafka's mapping of append errors to the
 * errors a commit answers (GroupMetadataManager's appendForGroup).
 */
import { ErrorCode } from "../common/index.js";
import type { Timers } from "../ports/index.js";
import type { NewRecord } from "../protocol/index.js";
import type { Partition, ReplicaManager } from "../replication/index.js";
import type { AppendVerification } from "../storage/index.js";
import { OFFSETS_TOPIC } from "./group-config.js";
import {
  encodeCoordinatorBatch,
  encodeOffsetRecords,
  type OffsetRecord,
  type OffsetsProducer,
} from "./offset-records.js";

/**
 * The producer of a transactional offset commit, with the guard of its verification with the
 * transaction coordinator (KIP-890) when the broker made one.
 */
export interface TransactionalOffsetsWrite extends OffsetsProducer {
  readonly verification?: AppendVerification;
}

/** Where an append ended, or its error as a commit reports it. */
export type OffsetWrite =
  | { readonly kind: "written"; readonly requiredOffset: number }
  | { readonly kind: "error"; readonly errorCode: number };

/**
 * Appends `records` in one batch to `partition` with acks=-1; a transactional batch of
 * `producer` when given, appended as a coordinator's (its epoch checked, not its sequence).
 */
export async function writeOffsetRecords(
  replicaManager: ReplicaManager,
  partition: Partition,
  write: {
    readonly records: readonly OffsetRecord[];
    readonly nowMs: number;
    readonly producer?: TransactionalOffsetsWrite;
  },
): Promise<OffsetWrite> {
  const { producer } = write;
  const bytes = encodeOffsetRecords(write.records, write.nowMs, producer);
  const verification = producer?.verification;
  const entry = { topicPartition: partition.topicPartition, records: bytes };
  const appended = await replicaManager.appendRecords(
    [verification === undefined ? entry : { ...entry, verification }],
    { requiredAcks: -1, origin: producer === undefined ? "client" : "coordinator" },
  );
  const outcome = appended.results[0]?.outcome;
  if (outcome === undefined) return { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
  if (outcome.kind === "error")
    return { kind: "error", errorCode: commitErrorOf(outcome.errorCode) };
  return { kind: "written", requiredOffset: outcome.lastOffset + 1 };
}

/**
 * Appends a group's records in one batch to offsets partition `partition` as its leader
 * (acks=-1) and waits until the high watermark covers them: NONE once durable, else the
 * append's own error code (NOT_LEADER_OR_FOLLOWER when this broker does not lead the
 * partition, REQUEST_TIMED_OUT after `timeoutMs`), which each caller maps as Kafka does.
 */
export async function appendDurably(
  replicaManager: ReplicaManager,
  partition: number,
  write: {
    readonly records: readonly NewRecord[];
    readonly timers: Timers;
    readonly timeoutMs: number;
  },
): Promise<number> {
  const topicPartition = { topic: OFFSETS_TOPIC, partition };
  const lookup = replicaManager.getPartitionOrError(topicPartition);
  if (lookup.kind === "error" || !lookup.partition.isLeader) {
    return ErrorCode.NOT_LEADER_OR_FOLLOWER;
  }
  const appended = await replicaManager.appendRecords(
    [{ topicPartition, records: encodeCoordinatorBatch(write.records) }],
    { requiredAcks: -1, origin: "client" },
  );
  const outcome = appended.results[0]?.outcome;
  if (outcome === undefined) return ErrorCode.UNKNOWN_SERVER_ERROR;
  if (outcome.kind === "error") return outcome.errorCode;
  return awaitHighWatermark(lookup.partition, outcome.lastOffset + 1, write);
}

/**
 * Waits until the partition's high watermark reaches `requiredOffset`; REQUEST_TIMED_OUT (as a
 * commit reports it) after `timeoutMs`, Kafka's `offsets.commit.timeout.ms`.
 */
export async function awaitDurable(
  partition: Partition,
  requiredOffset: number,
  options: { readonly timers: Timers; readonly timeoutMs: number },
): Promise<number> {
  return commitErrorOf(await awaitHighWatermark(partition, requiredOffset, options));
}

/**
 * Waits until the partition's high watermark reaches `requiredOffset` (an acks=-1 append is
 * then done); the append's error code, or REQUEST_TIMED_OUT after `timeoutMs`.
 */
export function awaitHighWatermark(
  partition: Partition,
  requiredOffset: number,
  options: { readonly timers: Timers; readonly timeoutMs: number },
): Promise<number> {
  const check = (): number | undefined => {
    const progress = partition.checkEnoughReplicasReachOffset(requiredOffset);
    return progress.kind === "done" ? progress.errorCode : undefined;
  };
  const first = check();
  if (first !== undefined) return Promise.resolve(first);
  return new Promise<number>((resolve) => {
    const finish = (errorCode: number): void => {
      stop();
      timer.cancel();
      resolve(errorCode);
    };
    const stop = partition.onHighWatermarkChanged(() => {
      const errorCode = check();
      if (errorCode !== undefined) finish(errorCode);
    });
    const timer = options.timers.schedule(options.timeoutMs, () =>
      finish(ErrorCode.REQUEST_TIMED_OUT),
    );
  });
}

/** Kafka's translation of an append error into the error a group request answers. */
export function commitErrorOf(errorCode: number): number {
  switch (errorCode) {
    case ErrorCode.UNKNOWN_TOPIC_OR_PARTITION:
    case ErrorCode.NOT_ENOUGH_REPLICAS:
    case ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
    case ErrorCode.REQUEST_TIMED_OUT:
      return ErrorCode.COORDINATOR_NOT_AVAILABLE;
    case ErrorCode.NOT_LEADER_OR_FOLLOWER:
    case ErrorCode.KAFKA_STORAGE_ERROR:
      return ErrorCode.NOT_COORDINATOR;
    case ErrorCode.MESSAGE_TOO_LARGE:
    case ErrorCode.RECORD_LIST_TOO_LARGE:
    case ErrorCode.INVALID_FETCH_SIZE:
      return ErrorCode.INVALID_COMMIT_OFFSET_SIZE;
    default:
      return errorCode;
  }
}

/**
 * Kafka's translation of an append error into the error a request that writes a classic
 * group's record answers (GroupMetadataManager.appendGroupMetadataErrorToResponseError).
 */
export function groupMetadataErrorOf(errorCode: number): number {
  switch (errorCode) {
    // Kafka's list for group records leaves this one as it is.
    case ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
      return errorCode;
    case ErrorCode.MESSAGE_TOO_LARGE:
    case ErrorCode.RECORD_LIST_TOO_LARGE:
    case ErrorCode.INVALID_FETCH_SIZE:
      return ErrorCode.UNKNOWN_SERVER_ERROR;
    default:
      // The rest as a commit maps them: COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR.
      return commitErrorOf(errorCode);
  }
}
