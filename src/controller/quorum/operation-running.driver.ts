/**
 * Running the quorum controller's queued operations: a read is answered from the committed image
 * once every earlier write committed; a write computes records from the latest image, proposes
 * them to Raft as one atomic batch and is answered when that batch commits. A refused proposal
 * fails its operation and changes nothing: the latest image, the soft state of broker contacts
 * and the elections it computed are dropped.
 */
import { AssertionError } from "../../common/index.js";
import { encodeMetadataRecord } from "../../protocol/index.js";
import { imageAfter } from "../cluster/index.js";
import { describeElection } from "../election/index.js";
import type { ControllerCore, QueuedEntry } from "./controller-core.js";
import type { ControllerProposeOptions, ControllerProposeResult } from "./controller-raft.js";
import type { ControllerRefusal, ReadContext, WriteContext, WriteOperation } from "./operation.js";
import { notControllerRefusal, proposalRefusal, refusalLeaderId } from "./refusals.js";

/** Runs a write: computes, proposes, and waits for the commit (or refuses). */
export async function runWrite(
  core: ControllerCore,
  entry: QueuedEntry,
  operation: WriteOperation<unknown>,
): Promise<void> {
  const generation = core.generation;
  const context = writeContext(core);
  const result = computeSafely(core, entry, () => operation.compute(context));
  if (result === undefined) return;
  const elections = [...core.hookElections.splice(0), ...(result.elections ?? [])];
  if (result.records.length === 0) {
    if (result.heartbeats !== undefined) core.heartbeats = result.heartbeats;
    answerAfterEarlierWrites(core, entry, () => result.response);
    return;
  }
  const encoded = result.records.map((record) => encodeMetadataRecord(record));
  const required = { requiredBaseOffset: context.nextWriteOffset };
  const proposed = await propose(core, encoded, result.needsExactOffset === true ? required : {});
  if (generation !== core.generation)
    return refuse(core, entry, notControllerRefusal(knownLeaderId(core)));
  if (proposed.kind === "refused") {
    if (proposed.reason === "offsetMismatch") {
      // The log holds records this controller did not propose (KRaft control records such as a
      // voters change), so its expected offset was stale; the retry will expect the real one.
      core.options.logger.warn("a batch that needed its offset was refused", {
        operation: operation.name,
        requiredBaseOffset: required.requiredBaseOffset,
        nextOffset: proposed.nextOffset,
      });
      core.nextWriteOffset = proposed.nextOffset;
    }
    return refuse(core, entry, proposalRefusal(proposed, knownLeaderId(core)));
  }
  if (result.heartbeats !== undefined) core.heartbeats = result.heartbeats;
  core.latest = imageAfter(core.latest, result.records);
  core.nextWriteOffset = proposed.lastOffset + 1;
  for (const report of elections) core.options.logger.info(describeElection(report));
  awaitCommit(core, entry, proposed.lastOffset, () => result.response);
}

/** Proposes records to Raft, counting the proposal as in flight until Raft answers. */
export async function propose(
  core: ControllerCore,
  records: readonly Uint8Array[],
  options: ControllerProposeOptions = {},
): Promise<ControllerProposeResult> {
  core.proposalsInFlight += 1;
  try {
    return await core.options.raft.propose(records, options);
  } finally {
    core.proposalsInFlight -= 1;
  }
}

/** Runs an operation's computation; a throw (other than an assert) rejects its answer. */
export function computeSafely<Result>(
  core: ControllerCore,
  entry: QueuedEntry,
  compute: () => Result,
): Result | undefined {
  try {
    return compute();
  } catch (error) {
    if (error instanceof AssertionError) throw error;
    core.hookElections.length = 0;
    core.options.logger.error("controller operation failed", {
      operation: entry.operation.name,
      error: String(error),
    });
    entry.reject(error);
    return undefined;
  }
}

/** Answers once everything written so far commits (at once when it has). */
export function answerAfterEarlierWrites(
  core: ControllerCore,
  entry: QueuedEntry,
  responseOf: () => unknown,
): void {
  awaitCommit(core, entry, core.nextWriteOffset - 1, responseOf);
}

/** Answers once `offset` commits, or refuses with NOT_CONTROLLER if leadership is lost first. */
function awaitCommit(
  core: ControllerCore,
  entry: QueuedEntry,
  offset: number,
  responseOf: () => unknown,
): void {
  const complete = (): void => {
    const response = computeSafely(core, entry, responseOf);
    if (response !== undefined) answer(core, entry, response);
  };
  if (offset <= core.lastCommittedOffset) {
    complete();
  } else {
    const fail = (): void => refuse(core, entry, notControllerRefusal(knownLeaderId(core)));
    core.pending.add({ offset, complete, fail });
  }
  maybeCatchUpLatest(core);
  updateQueueMetric(core);
}

/** With nothing uncommitted, the latest image is the committed one (and shares its maps). */
export function maybeCatchUpLatest(core: ControllerCore): void {
  if (core.pending.size === 0 && core.proposalsInFlight === 0) core.latest = core.loader.image;
}

/** Answers an operation, recording how long it took. */
function answer(core: ControllerCore, entry: QueuedEntry, response: unknown): void {
  const latencyMs = core.options.clock.monotonicMs() - entry.enqueuedAtMs;
  core.metrics.observeLatency(entry.operation.name, latencyMs);
  entry.resolve(response);
}

/** Answers an operation with its refusal. */
export function refuse(core: ControllerCore, entry: QueuedEntry, refusal: ControllerRefusal): void {
  answer(core, entry, entry.operation.refuse(refusal));
}

/** The controller a refusal names (see `refusalLeaderId`). */
export function knownLeaderId(core: ControllerCore): number | null {
  const raftLeaderId = core.options.raft.leaderAndEpoch().leaderId;
  return refusalLeaderId(raftLeaderId, {
    nodeId: core.nodeId,
    isActive: core.state.kind === "active",
  });
}

/** Publishes how many operations wait: queued plus waiting for their commit. */
export function updateQueueMetric(core: ControllerCore): void {
  core.metrics.setQueueLength(core.queue.length + core.pending.size);
}

/** What a write computes from: the latest image and the soft state. */
function writeContext(core: ControllerCore): WriteContext {
  return {
    image: core.latest,
    heartbeats: core.heartbeats,
    nowMs: core.options.clock.monotonicMs(),
    nextWriteOffset: core.nextWriteOffset,
    random: core.options.random,
    hooks: core.hooks,
    settings: core.options.settings,
    nodeId: core.nodeId,
  };
}

/** What a read computes from: the committed image. */
export function readContext(core: ControllerCore): ReadContext {
  return { image: core.loader.image, settings: core.options.settings, nodeId: core.nodeId };
}
