/**
 * A first-in first-out queue of asynchronous operations run one at a time: the log's appends,
 * truncations, rolls and deletions never interleave, as under Kafka's log lock. Callers that
 * arrive while an operation runs wait in `pending`, in arrival order.
 */
import { assert } from "../../common/index.js";

interface PendingOperation {
  readonly run: () => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export class SerialQueue {
  private readonly pending: PendingOperation[] = [];
  private isRunning = false;

  /** `onSettled` runs after each operation has settled (and its caller was answered). */
  constructor(private readonly onSettled: () => void = () => undefined) {}

  /** How many operations wait (not counting the one running). */
  get waitingCount(): number {
    return this.pending.length;
  }

  /** True while an operation runs or waits. */
  get isBusy(): boolean {
    return this.isRunning || this.pending.length > 0;
  }

  /** Runs `operation` after every operation enqueued before it has settled. */
  enqueue<T>(operation: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run: operation, resolve: resolve as (value: unknown) => void, reject });
      if (!this.isRunning) void this.drain();
    });
  }

  /** Runs the waiting operations until none is left; never throws (each caller gets its error). */
  private async drain(): Promise<void> {
    assert(!this.isRunning, "one drain loop at a time");
    this.isRunning = true;
    try {
      for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
        try {
          next.resolve(await next.run());
        } catch (error) {
          next.reject(error);
        }
        this.onSettled();
      }
    } finally {
      this.isRunning = false;
    }
  }
}
