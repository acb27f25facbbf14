/**
 * What this machine lets the harness do, probed before a scenario runs: each capability is
 * present or names what is missing, and a scenario that needs a missing one is skipped loudly.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { succeeds } from "./system.js";

export type Capability = "netns" | "iptables" | "kcat" | "tmpfs" | "xfs" | "faketime";

/** Where libfaketime may be installed. */
const FAKETIME_LIBRARIES = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1",
  "/usr/lib/faketime/libfaketimeMT.so.1",
  "/usr/local/lib/faketime/libfaketimeMT.so.1",
];

export function faketimeLibrary(): string | undefined {
  return FAKETIME_LIBRARIES.find((path) => existsSync(path));
}

/** Each capability: null when present, else what is missing. */
export type Capabilities = Readonly<Record<Capability, string | null>>;

export async function probeCapabilities(): Promise<Capabilities> {
  const probeNs = `scprobe${process.pid}`;
  const netns = await succeeds("ip", ["netns", "add", probeNs]);
  const iptables =
    netns && (await succeeds("ip", ["netns", "exec", probeNs, "iptables", "-L", "-n"]));
  if (netns) await succeeds("ip", ["netns", "del", probeNs]);
  return {
    netns: netns ? null : "ip netns (needs root and the iproute2 tools)",
    iptables: iptables ? null : "iptables inside a network namespace",
    kcat: (await succeeds("kcat", ["-V"])) ? null : "kcat (librdkafka)",
    tmpfs: (await canMountTmpfs()) ? null : "mounting a size-limited tmpfs (needs root)",
    xfs: await xfsMissing(),
    faketime: faketimeLibrary() === undefined ? "libfaketime (package faketime)" : null,
  };
}

async function canMountTmpfs(): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "sluice-chaos-probe-"));
  try {
    // In a mount namespace of its own, so that no other namespace ever sees the probe's mount.
    const script = `mount -t tmpfs -o size=1m tmpfs ${dir} && umount ${dir}`;
    return await succeeds("unshare", ["-m", "--propagation", "private", "sh", "-c", script]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function xfsMissing(): Promise<string | null> {
  const filesystems = existsSync("/proc/filesystems")
    ? readFileSync("/proc/filesystems", "utf8")
    : "";
  if (!/\bxfs\b/.test(filesystems)) return "XFS in the kernel (/proc/filesystems)";
  if (!(await succeeds("mkfs.xfs", ["-V"]))) return "mkfs.xfs (xfsprogs)";
  if (!(await succeeds("xfs_io", ["-V"]))) return "xfs_io (xfsprogs)";
  if (!existsSync("/dev/loop-control")) return "loop devices (/dev/loop-control)";
  return null;
}
