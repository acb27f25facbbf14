/**
 * What the files hold at the end of a run: each replica's batches below the high watermark as
 * `sluice dump-log --json` prints them from the node's files (the partitions are read back
 * with kcat by the fault tests' `readPartition`).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Cluster } from "./cluster.js";
import { sluiceScript } from "./node-process.js";
import { sh } from "./system.js";

export { readPartition } from "../test/cluster/read-back.js";

export interface StoredRecord {
  readonly offset: number;
  readonly value: string;
}

/** The batches (offsets, epoch, CRC) of one replica below `highWatermark`, one string each. */
async function replicaBatches(dir: string, highWatermark: number): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith(".log"))
    .sort()
    .map((file) => join(dir, file));
  if (files.length === 0) return [];
  const stdout = await sh(
    process.execPath,
    [sluiceScript(), "dump-log", "--json", ...files],
    120_000,
  );
  return stdout
    .split("\n")
    .filter((line) => line.startsWith('{"type":"batch"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((batch) => Number(batch["lastOffset"]) < highWatermark)
    .map((batch) =>
      ["baseOffset", "lastOffset", "partitionLeaderEpoch", "crc"]
        .map((f) => String(batch[f]))
        .join(" "),
    );
}

/** A replica whose batches below the high watermark differ from the first replica's. */
export interface ReplicaDifference {
  readonly partition: number;
  readonly nodeId: number;
  readonly detail: string;
}

/**
 * Compares every replica of `topic`-`partition` below `highWatermark` with the first one; only
 * the nodes in `replicas` count (a node a reassignment moved the partition off may keep a
 * stale copy until it deletes it).
 */
export async function compareReplicas(
  cluster: Cluster,
  target: { readonly topic: string; readonly partition: number },
  highWatermark: number,
  replicas: readonly number[],
): Promise<ReplicaDifference[]> {
  const { topic, partition } = target;
  const copies: { nodeId: number; batches: string[] }[] = [];
  for (const node of cluster.nodes.filter((each) => replicas.includes(each.nodeId))) {
    const dir = join(node.dataDir, `${topic}-${partition}`);
    if (existsSync(dir))
      copies.push({ nodeId: node.nodeId, batches: await replicaBatches(dir, highWatermark) });
  }
  const [first, ...others] = copies;
  if (first === undefined) return [{ partition, nodeId: -1, detail: "no replica on disk" }];
  const differences: ReplicaDifference[] = [];
  for (const other of others) {
    const at = other.batches.findIndex((batch, index) => batch !== first.batches[index]);
    if (at >= 0 || other.batches.length !== first.batches.length) {
      const index = at >= 0 ? at : Math.min(other.batches.length, first.batches.length);
      differences.push({
        partition,
        nodeId: other.nodeId,
        detail:
          `batch ${index}: node ${first.nodeId} has "${first.batches[index] ?? "none"}", ` +
          `node ${other.nodeId} has "${other.batches[index] ?? "none"}"`,
      });
    }
  }
  return differences;
}
