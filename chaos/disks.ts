/**
 * Disk faults on a node's data dir (the partitions' log dir; the metadata log lives apart): a
 * size-limited tmpfs filled to ENOSPC, and an XFS file system on a loop device that is shut
 * down with `xfs_io -x -c shutdown`: every later operation fails with EIO, and without `-f` the
 * unflushed log is lost too, as at a power cut. Every mount and loop device is removed again.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NodeProcess } from "./node-process.js";
import { onCleanUp, sh, shNow, succeeds } from "./system.js";

const FILLER = ".chaos-filler";

/** Mounts a tmpfs of `megabytes` at the node's data dir. */
export async function mountTmpfs(node: NodeProcess, megabytes: number): Promise<void> {
  mkdirSync(node.dataDir, { recursive: true });
  await sh("mount", ["-t", "tmpfs", "-o", `size=${megabytes}m`, "tmpfs", node.dataDir]);
  onCleanUp(
    `tmpfs at ${node.dataDir}`,
    () => unmount(node.dataDir),
    () => shNow("umount", ["-l", node.dataDir]),
  );
}

/** Fills the node's data dir until the file system has no room left. */
export async function fillDisk(node: NodeProcess): Promise<void> {
  const path = join(node.dataDir, FILLER);
  // dd ends with "No space left on device", which is the point.
  await succeeds("dd", ["if=/dev/zero", `of=${path}`, "bs=1M"]);
}

export function freeDisk(node: NodeProcess): void {
  rmSync(join(node.dataDir, FILLER), { force: true });
}

/** The loop devices made, by node id, so a shut down file system can be mounted again. */
const devices = new Map<number, string>();

/** Makes an XFS file system of `megabytes` on a loop device and mounts it at the data dir. */
export async function mountXfs(node: NodeProcess, megabytes: number): Promise<void> {
  const image = join(node.dir, "disk.img");
  mkdirSync(node.dir, { recursive: true });
  writeFileSync(image, "");
  await sh("truncate", ["-s", `${megabytes}M`, image]);
  const device = (await sh("losetup", ["-f", "--show", image])).trim();
  devices.set(node.nodeId, device);
  onCleanUp(
    `loop device ${device}`,
    async () => {
      await sh("losetup", ["-d", device]);
      devices.delete(node.nodeId);
    },
    () => shNow("losetup", ["-d", device]),
  );
  await sh("mkfs.xfs", ["-q", "-f", device]);
  mkdirSync(node.dataDir, { recursive: true });
  await sh("mount", ["-t", "xfs", device, node.dataDir]);
  onCleanUp(
    `xfs at ${node.dataDir}`,
    () => unmount(node.dataDir),
    () => shNow("umount", ["-l", node.dataDir]),
  );
}

/**
 * Shuts the node's XFS down: with `flushLog` the journal is written first (a failed disk),
 * without it what was not yet flushed is lost (a power cut).
 */
export async function shutDownXfs(node: NodeProcess, flushLog: boolean): Promise<void> {
  await sh("xfs_io", ["-x", "-c", flushLog ? "shutdown -f" : "shutdown", node.dataDir]);
}

/** Unmounts the shut down XFS and mounts it again, which replays its journal. */
export async function remountXfs(node: NodeProcess): Promise<void> {
  const device = devices.get(node.nodeId);
  if (device === undefined) throw new Error(`node ${node.nodeId} has no XFS`);
  await unmount(node.dataDir);
  await sh("mount", ["-t", "xfs", device, node.dataDir]);
}

async function unmount(dir: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await sh("umount", [dir]);
      return;
    } catch (error) {
      if (String(error).includes("not mounted")) return;
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
