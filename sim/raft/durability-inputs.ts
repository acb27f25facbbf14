/**
 * What a completed fsync tells the node: the log end that became durable (`logAppended`), the
 * downloaded snapshots now installed (`snapshotLoaded`), and its own snapshots now written
 * (`snapshotWritten`), as src/raft/README.md asks of a driver.
 */
import type { DiskOperation } from "./disk-state.js";
import type { RaftProcess } from "./raft-process.js";

/** The inputs to give `process`'s node, in order, for the operations an fsync made durable. */
export function durabilityInputs(
  process: RaftProcess,
  operations: readonly DiskOperation[],
): (() => void)[] {
  const inputs: (() => void)[] = [];
  let lastAppend: Extract<DiskOperation, { kind: "append" }> | undefined;
  for (const operation of operations) if (operation.kind === "append") lastAppend = operation;
  // An append cut by a later truncation or install no longer says where the log ends.
  if (lastAppend !== undefined && lastAppend.generation === process.disk.generation) {
    const endOffset = (lastAppend.batches.at(-1)?.lastOffset ?? -1) + 1;
    inputs.push(() => process.input((node, nowMs) => node.logAppended(nowMs, { endOffset })));
  }
  for (const operation of operations) {
    if (operation.kind === "installSnapshot") {
      const info = { snapshotId: operation.snapshotId, sizeBytes: operation.sizeBytes };
      inputs.push(() => process.input((node, nowMs) => node.snapshotLoaded(nowMs, info)));
    } else if (operation.kind === "writeSnapshot") {
      const { snapshotId, bytes } = operation.snapshot;
      const info = { snapshotId, sizeBytes: bytes.length };
      inputs.push(() => {
        process.isWritingSnapshot = false;
        process.input((node, nowMs) => node.snapshotWritten(nowMs, info));
      });
    }
  }
  return inputs;
}
