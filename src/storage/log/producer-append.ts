/**
 * The partition's producer state at the log's append (Kafka's
 * UnifiedLog.analyzeAndValidateProducerState): a leader's input is checked batch by batch before
 * it takes offsets, and every batch written, by leader or follower, updates the state. Both run
 * while the group is planned, in arrival order, so a retry coalesced with its original in one
 * group is found too. A write that fails after planning fails the log, so the state never
 * outlives a batch that was not written. A client's batches are checked by the sequence rules;
 * a coordinator's (end markers, transactional offset commits) only by their epochs. Pure.
 */
import { decodeControlRecord, decodeRecords } from "../../protocol/index.js";
import { ErrorCode } from "../../common/index.js";
import {
  isProducerBatch,
  type CompletedTransaction,
  type ProducerStateManager,
  type VerificationGuard,
} from "../producer-state/index.js";
import type { FramedBatch } from "./append-batches.js";
import type { AppendRefusal } from "./log-errors.js";

/** Who a leader appends for: a producer (Produce) or a coordinator (markers, its own records). */
export type LeaderOrigin = "client" | "coordinator";

/** An end marker's type and coordinator epoch, read from its control record. */
export interface MarkerOf {
  readonly type: "commit" | "abort";
  readonly coordinatorEpoch: number;
}

/** The end marker `batch` holds, or undefined when it is no transaction marker. */
export function markerOf(batch: FramedBatch): MarkerOf | undefined {
  const { header } = batch;
  if (!header.isControl || !header.isTransactional || header.producerId < 0) return undefined;
  return markerOfBytes(
    batch.input.subarray(batch.offsetInInput, batch.offsetInInput + batch.sizeInBytes),
  );
}

/** The end marker of a control batch's bytes, or undefined when it holds none. */
export function markerOfBytes(bytes: Uint8Array): MarkerOf | undefined {
  const decoded = decodeRecords(bytes, { maxDecompressedBytes: bytes.length * 64 + 1024 });
  const first = decoded.ok ? decoded.records[0] : undefined;
  if (first === undefined) return undefined;
  const control = decodeControlRecord(first);
  if (!control.ok) return undefined;
  const { type } = control.control;
  if (type !== "commit" && type !== "abort") return undefined;
  return { type, coordinatorEpoch: control.control.coordinatorEpoch };
}

/**
 * The KIP-890 check of a client's transactional batches, made when the broker verifies them
 * with the transaction coordinator: the guard its verification started, or undefined when none
 * was started (a transaction of the producer was ongoing here).
 */
export interface AppendVerification {
  readonly guard: VerificationGuard | undefined;
}

/** The refusal of a leader's batches by the producer rules, or undefined. */
export function checkProducerBatches(
  batches: readonly FramedBatch[],
  producers: ProducerStateManager,
  leader: { readonly origin: LeaderOrigin; readonly verification?: AppendVerification },
): AppendRefusal | undefined {
  const { origin, verification } = leader;
  for (const batch of batches) {
    const { header } = batch;
    if (origin === "coordinator" && header.producerId >= 0) {
      const marker = markerOf(batch);
      const check = producers.checkCoordinatorBatch({
        producerId: header.producerId,
        producerEpoch: header.producerEpoch,
        coordinatorEpoch: marker?.coordinatorEpoch,
      });
      if (check.kind === "refused") return { ...check, kind: "producerRefused" };
      // A transactional offset commit (not a marker) is verified as a client's batch is.
      const isData = marker === undefined && header.isTransactional;
      const unverified = isData ? missingVerification(header, producers, verification) : undefined;
      if (unverified !== undefined) return unverified;
      continue;
    }
    if (!isProducerBatch(header)) continue;
    const unverified =
      verification === undefined ? undefined : verificationRefusal(header, producers, verification);
    if (unverified !== undefined) return unverified;
    const check = producers.checkClientBatch({
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      lastOffsetDelta: header.lastOffsetDelta,
    });
    if (check.kind === "duplicate") return { kind: "duplicateSequence", ...check.original };
    if (check.kind === "refused") return { ...check, kind: "producerRefused" };
  }
  return undefined;
}

/**
 * Kafka's verification rules at the append: while a verification of the producer is under way
 * no batch above the lowest sequence that asked may pass (OUT_OF_ORDER_SEQUENCE_NUMBER), and a
 * transactional batch that starts a transaction here needs the guard of the verification under
 * way (INVALID_TXN_STATE otherwise).
 */
function verificationRefusal(
  header: FramedBatch["header"],
  producers: ProducerStateManager,
  verification: AppendVerification,
): AppendRefusal | undefined {
  const { producerId, baseSequence } = header;
  const lowest = producers.verifications.lowestSequenceOf(producerId);
  if (lowest !== undefined && baseSequence > lowest) {
    const message =
      `sequence ${baseSequence} of producer ${producerId} is above ${lowest}, ` +
      "the lowest sequence being verified";
    return { kind: "producerRefused", errorCode: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, message };
  }
  return header.isTransactional ? missingVerification(header, producers, verification) : undefined;
}

/**
 * INVALID_TXN_STATE for a transactional batch that starts a transaction here without the guard
 * of the producer's verification under way; undefined when the append is not verified.
 */
function missingVerification(
  header: FramedBatch["header"],
  producers: ProducerStateManager,
  verification: AppendVerification | undefined,
): AppendRefusal | undefined {
  if (verification === undefined) return undefined;
  const { producerId } = header;
  if (producers.entry(producerId)?.currentTxnFirstOffset !== undefined) return undefined;
  if (producers.verifications.isCurrent(producerId, verification.guard)) return undefined;
  const message = "Record was not part of an ongoing transaction";
  return { kind: "producerRefused", errorCode: ErrorCode.INVALID_TXN_STATE, message };
}

/** A transaction an end marker of the append completed, with the marker's type. */
export interface AppendedCompletion extends CompletedTransaction {
  readonly isAborted: boolean;
}

/**
 * Records `batches`, which now have their offsets, in the producer state; returns the
 * transactions their end markers completed, in order.
 */
export function recordProducerBatches(
  batches: readonly FramedBatch[],
  producers: ProducerStateManager,
): AppendedCompletion[] {
  const completed: AppendedCompletion[] = [];
  for (const batch of batches) {
    const { header } = batch;
    // A transactional batch written, data or marker, ends the producer's verification.
    if (header.isTransactional) producers.verifications.clear(header.producerId);
    const marker = markerOf(batch);
    if (marker !== undefined) {
      const done = producers.completeTransaction({
        producerId: header.producerId,
        producerEpoch: header.producerEpoch,
        coordinatorEpoch: marker.coordinatorEpoch,
        offset: batch.baseOffset,
        timestamp: batch.maxTimestamp,
      });
      if (done !== undefined) completed.push({ ...done, isAborted: marker.type === "abort" });
      continue;
    }
    if (!isProducerBatch(header)) continue;
    producers.update({
      producerId: header.producerId,
      producerEpoch: header.producerEpoch,
      baseSequence: header.baseSequence,
      lastOffsetDelta: header.lastOffsetDelta,
      baseOffset: batch.baseOffset,
      maxTimestamp: batch.maxTimestamp,
      isTransactional: header.isTransactional,
    });
  }
  return completed;
}
