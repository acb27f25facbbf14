/**
 * Feeding a future log from the current log of the same partition, as Kafka's alter-log-dirs
 * fetcher does, with batches copied byte for byte. Before each copy the future log is brought
 * back in line with the current one: the current log may have been truncated (a follower
 * meeting a new leader) or had its start moved (retention) since the last step.
 */
import type { PartitionLog } from "../log/index.js";
import type { HeldLog } from "./log-registry.js";
import { guarded, type ManagerCore } from "./manager-core.js";

/** The bytes of the batch holding `offset`, or undefined when the log has no such offset. */
async function batchAt(log: PartitionLog, offset: number): Promise<Uint8Array | undefined> {
  const result = await log.read({
    fromOffset: offset,
    maxBytes: 1,
    maxOffset: log.logEndOffset,
    minOneBatch: true,
  });
  if (result.kind !== "records") return undefined;
  const slice = result.slices[0];
  if (slice === undefined) return undefined;
  return log.readBytes(slice);
}

function sameBytes(left: Uint8Array | undefined, right: Uint8Array | undefined): boolean {
  if (left === undefined || right === undefined) return false;
  if (left.length !== right.length) return false;
  return left.every((byte, index) => byte === right[index]);
}

/**
 * Truncates the future log where it no longer matches the current log. Batches carry their
 * offsets and leader epoch, so when the future log's last batch is byte for byte the current
 * log's batch at the same offset, everything before it matches too (as replicas match by epoch
 * and offset); otherwise the future log starts over. Resolves to the dir that failed, if one did.
 */
export async function reconcileFutureLog(
  core: ManagerCore,
  current: HeldLog<PartitionLog>,
  future: HeldLog<PartitionLog>,
): Promise<string | undefined> {
  const source = current.log;
  const target = future.log;
  const startOver = async (): Promise<string | undefined> => {
    const done = await guarded(core, future.logDir, () =>
      target.truncateFullyAndStartAt(source.logStartOffset),
    );
    return done.ok ? undefined : future.logDir;
  };
  if (target.logEndOffset < source.logStartOffset) return startOver();
  if (target.logEndOffset > source.logEndOffset) {
    const cut = await guarded(core, future.logDir, () => target.truncateTo(source.logEndOffset));
    if (!cut.ok) return future.logDir;
  }
  if (target.logEndOffset <= Math.max(source.logStartOffset, target.logStartOffset)) {
    return undefined;
  }
  const lastOffset = target.logEndOffset - 1;
  const mine = await guarded(core, future.logDir, () => batchAt(target, lastOffset));
  if (!mine.ok) return future.logDir;
  const theirs = await guarded(core, current.logDir, () => batchAt(source, lastOffset));
  if (!theirs.ok) return current.logDir;
  if (sameBytes(mine.value, theirs.value)) return undefined;
  core.logger.warn("a future log diverged from the current log; copying again", {
    dir: target.dir,
    offset: lastOffset,
  });
  return startOver();
}

/** Copies up to `replica.fetch.max.bytes` of whole batches at the future log's end. */
export async function copyBatches(
  core: ManagerCore,
  current: HeldLog<PartitionLog>,
  future: HeldLog<PartitionLog>,
): Promise<{ kind: "copied"; bytes: number } | { kind: "dirFailed"; logDir: string }> {
  const source = current.log;
  const target = future.log;
  if (target.logEndOffset >= source.logEndOffset) return { kind: "copied", bytes: 0 };
  const read = await guarded(core, current.logDir, async () => {
    const result = await source.read({
      fromOffset: target.logEndOffset,
      maxBytes: core.config.replicaFetchMaxBytes,
      maxOffset: source.logEndOffset,
      minOneBatch: true,
    });
    if (result.kind !== "records") return new Uint8Array(0);
    const parts = [];
    for (const slice of result.slices) parts.push(await source.readBytes(slice));
    return concatenate(parts);
  });
  if (!read.ok) return { kind: "dirFailed", logDir: current.logDir };
  if (read.value.length === 0) return { kind: "copied", bytes: 0 };
  const written = await guarded(core, future.logDir, () => target.appendAsFollower(read.value));
  if (!written.ok) return { kind: "dirFailed", logDir: future.logDir };
  return { kind: "copied", bytes: read.value.length };
}

function concatenate(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const whole = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
