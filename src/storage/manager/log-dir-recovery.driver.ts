/**
 * A log dir that went offline because its disk was full (ENOSPC) comes back once the disk has
 * room again, a Sluice extension: Kafka keeps every failed dir offline until a restart. Every
 * `sluice.log.dir.full.probe.interval.ms` the periodic work writes and syncs a probe file of
 * FULL_DIR_PROBE_BYTES in each such dir; once that succeeds the dir is opened again as at start
 * and its logs loaded with recovery (manager-start.driver.ts), and the listeners hear which
 * partitions it holds, so that the broker reports the dir online again.
 *
 * Only a dir that was the node's last online one when it failed is probed: the broker was then
 * fenced with its registration unchanged, and unfencing it elects leaders by the usual rules. A
 * dir that failed while others stayed online was dropped from the broker's registration, which
 * a heartbeat cannot restore; it stays offline until a restart, as in Kafka.
 */
import { joinPath } from "../../common/index.js";
import { isFileSystemError } from "../../ports/index.js";
import type { TopicPartition } from "../log/index.js";
import type { ExpectedIdentity } from "../meta-properties.js";
import type { LogDirFailure } from "./log-dir-failure.driver.js";
import { reloadLogDir, type LoadingHost } from "./manager-start.driver.js";

/** The probe file's size: the room a dir must have again before it takes writes (1 MiB). */
export const FULL_DIR_PROBE_BYTES = 1_048_576;

/** The probe file, in the log dir (not a partition folder, so loading ignores it). */
export const FULL_DIR_PROBE_FILE = ".sluice-space-probe";

/** Raised when a dir that was full is online again. */
export interface LogDirRecovery {
  readonly logDir: string;
  /** The partitions whose current log the dir holds, loaded again. */
  readonly partitions: readonly TopicPartition[];
}

export type LogDirRecoveryListener = (recovery: LogDirRecovery) => void;

/** True when `error`, or an error it was caused by, is ENOSPC. */
export function isDiskFull(error: unknown): boolean {
  let cause: unknown = error;
  for (let depth = 0; depth < 8 && cause instanceof Error; depth++) {
    if (isFileSystemError(cause, "ENOSPC")) return true;
    cause = cause.cause;
  }
  return false;
}

/** The dirs offline for a full disk, their probes, and the listeners of their return. */
export class FullDirRecovery {
  private readonly fullDirs = new Set<string>();
  private readonly listeners: LogDirRecoveryListener[] = [];

  constructor(
    private readonly host: LoadingHost,
    private readonly identity: ExpectedIdentity,
  ) {}

  /** Notes a dir failure; a full disk that was the last online dir will be probed. */
  onFailure(failure: LogDirFailure): void {
    if (failure.isLastOnlineDir && isDiskFull(failure.cause)) {
      this.host.logger.warn("log dir offline for a full disk; it comes back once there is room", {
        logDir: failure.logDir,
        probeBytes: FULL_DIR_PROBE_BYTES,
      });
      this.fullDirs.add(failure.logDir);
    }
  }

  /** Adds `listener`; the function returned removes it. */
  subscribe(listener: LogDirRecoveryListener): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /** Probes every full dir and brings back those with room; the number back online. */
  async run(): Promise<number> {
    let recovered = 0;
    for (const logDir of [...this.fullDirs]) {
      if (!(await this.hasRoom(logDir))) continue;
      this.fullDirs.delete(logDir);
      const partitions = await reloadLogDir(this.host, { logDir, identity: this.identity });
      // Failed again: the failure was reported, and noted again if the disk is still full.
      if (partitions === undefined) continue;
      this.host.logger.info("log dir back online: its disk has room again", {
        logDir,
        partitions: partitions.length,
      });
      recovered++;
      for (const listener of [...this.listeners]) listener({ logDir, partitions });
    }
    return recovered;
  }

  /** Writes, syncs and removes the probe file; false when the disk refuses any of it. */
  private async hasRoom(logDir: string): Promise<boolean> {
    const { fileSystem } = this.host;
    const path = joinPath(logDir, FULL_DIR_PROBE_FILE);
    try {
      const handle = await fileSystem.open(path, { create: true, truncate: true });
      try {
        await handle.write(new Uint8Array(FULL_DIR_PROBE_BYTES), 0);
        await handle.sync();
      } finally {
        await handle.close();
        await fileSystem.unlink(path);
      }
      return true;
    } catch (error) {
      // Still full, or the disk fails otherwise: the dir stays offline and is probed again.
      if (!isFileSystemError(error)) throw error;
      return false;
    }
  }
}
