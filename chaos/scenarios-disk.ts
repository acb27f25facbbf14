/**
 * The scenarios whose faults hit a node's disk: its data dir filled to ENOSPC, its file system
 * failing with EIO (a log-dir failure), and power cuts that lose what was not flushed, on one
 * replica (inside the fault model: the others hold every acknowledged write) or on two at once
 * (outside it: with flush.messages unset, acknowledged writes may be only in page caches).
 */
import { fillDisk, freeDisk, mountTmpfs, mountXfs, remountXfs, shutDownXfs } from "./disks.js";
import type { FaultContext, Scenario } from "./scenario.js";

const RECOVERY_MS = 90_000;
const DISK_MB = 512;

const settle = (context: FaultContext) => context.cluster.awaitFullIsr(context.topic, RECOVERY_MS);

/** A random partition's leader, as Metadata names it now. */
async function someLeader(context: FaultContext): Promise<{ partition: number; leader: number }> {
  const partitions = await context.cluster.partitions(context.topic);
  const partition = context.pick(partitions.size);
  const leader = partitions.get(partition)?.leader ?? -1;
  if (leader < 0) throw new Error(`partition ${partition} has no leader`);
  return { partition, leader };
}

export const enospc: Scenario = {
  name: "enospc",
  description: "fill a partition leader's data dir (a 512 MiB tmpfs) to ENOSPC, then free it",
  requires: ["netns", "kcat", "tmpfs"],
  cluster: { prepare: (node) => mountTmpfs(node, DISK_MB) },
  async round(context) {
    const { partition, leader } = await someLeader(context);
    const node = context.cluster.node(leader);
    context.note("fill-disk", `node ${leader} (leader of ${partition})`);
    await fillDisk(node);
    await context.hold(8000);
    freeDisk(node);
    context.healed(`node ${leader}`);
    await settle(context);
  },
};

/** Shuts a node's XFS down, kills the node, mounts the disk again and restarts it. */
async function diskLoss(context: FaultContext, nodeIds: readonly number[], flushLog: boolean) {
  const nodes = nodeIds.map((id) => context.cluster.node(id));
  for (const node of nodes) await shutDownXfs(node, flushLog);
  await context.hold(flushLog ? 6000 : 0);
  for (const node of nodes) await node.stop("SIGKILL");
  await context.hold(2000);
  for (const node of nodes) await remountXfs(node);
  await Promise.all(nodes.map((node) => node.start()));
  context.healed(`node ${nodeIds.join(",")} on its remounted disk`);
  await settle(context);
}

export const logDirFailure: Scenario = {
  name: "log-dir-failure",
  description: "a partition leader's XFS data dir fails with EIO (xfs_io shutdown -f); restart",
  requires: ["netns", "kcat", "xfs"],
  cluster: { prepare: (node) => mountXfs(node, DISK_MB) },
  async round(context) {
    const { partition, leader } = await someLeader(context);
    context.note("disk-failure", `node ${leader} (leader of ${partition}): EIO`);
    await diskLoss(context, [leader], true);
  },
};

export const powerLoss: Scenario = {
  name: "power-loss",
  description: "power cut on one node: XFS shut down without flushing, kill -9, remount, restart",
  requires: ["netns", "kcat", "xfs"],
  cluster: { prepare: (node) => mountXfs(node, DISK_MB) },
  async round(context) {
    const { partition, leader } = await someLeader(context);
    const victim = context.pick(2) === 0 ? leader : context.cluster.ids.find((id) => id !== leader);
    context.note("power-loss", `node ${victim} (leader of ${partition}: ${leader})`);
    await diskLoss(context, [victim ?? leader], false);
  },
};

export const powerLossTwo: Scenario = {
  name: "power-loss-two",
  description: "power cut on two of the three replicas at once (the KIP-966 case)",
  requires: ["netns", "kcat", "xfs"],
  outsideFaultModel:
    "acknowledged writes of acks=all are in the page cache of the ISR, not on disk, unless " +
    "flush.messages=1; losing two of three replicas' caches at once may lose them (as in Kafka)",
  cluster: { prepare: (node) => mountXfs(node, DISK_MB) },
  async round(context) {
    const { partition, leader } = await someLeader(context);
    const other = context.cluster.ids.filter((id) => id !== leader)[context.pick(2)] ?? leader;
    context.note("power-loss", `nodes ${leader},${other} (leader of ${partition}: ${leader})`);
    await diskLoss(context, [leader, other], false);
  },
};
