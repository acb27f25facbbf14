/**
 * A partition's way to its log while a replica move between log dirs may swap the log under it
 * (Kafka's Partition holds its leaderIsrUpdateLock for writing around the swap). Appends, reads
 * and truncations `use` the log; `replace` waits until none is under way, holds new ones back,
 * and lets the swap put the moved log (in its new dir) in place of the old one, which the swap
 * closes.
 */
import type { PartitionLog } from "../storage/index.js";

/** What a swap leaves: the log and its dir, or nothing when it failed (the dir went offline). */
export type LogSwapResult =
  | { readonly kind: "replaced"; readonly log: PartitionLog; readonly logDir: string }
  | { readonly kind: "failed" };

export class PartitionLogAccess {
  private users = 0;
  private swap: Promise<unknown> | undefined;
  private whenUnused: (() => void) | undefined;

  constructor(
    private log: PartitionLog,
    private dir: string,
  ) {}

  /** The log now; for synchronous reads of its offsets. */
  get current(): PartitionLog {
    return this.log;
  }

  /** The log dir holding the log now. */
  get logDir(): string {
    return this.dir;
  }

  /** Runs `work` on the log, after any swap under way. */
  async use<T>(work: (log: PartitionLog) => Promise<T>): Promise<T> {
    while (this.swap !== undefined) await this.swap;
    this.users++;
    try {
      return await work(this.log);
    } finally {
      this.users--;
      if (this.users === 0) this.whenUnused?.();
    }
  }

  /** Runs `swap` with no other use of the log under way, and takes the log it leaves. */
  async replace(swap: (log: PartitionLog) => Promise<LogSwapResult>): Promise<LogSwapResult> {
    while (this.swap !== undefined) await this.swap;
    const running = (async () => {
      if (this.users > 0) {
        await new Promise<void>((resolve) => (this.whenUnused = resolve));
        this.whenUnused = undefined;
      }
      const result = await swap(this.log);
      if (result.kind === "replaced") {
        this.log = result.log;
        this.dir = result.logDir;
      }
      return result;
    })();
    this.swap = running;
    try {
      return await running;
    } finally {
      this.swap = undefined;
    }
  }
}
