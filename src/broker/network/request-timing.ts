/**
 * The times of one request, split as Kafka's RequestMetrics split them (RequestChannel's
 * updateRequestMetrics): queued before it was taken up, handled here (local), waiting for others
 * (remote: the purgatory, the controller), waiting for its turn to be written (response queue)
 * and being sent. Milliseconds on the monotonic clock. Apart from these, the time its connection
 * was muted for a quota after it (Kafka's ThrottleTimeMs).
 */
import type { Clock } from "../../ports/index.js";
import type { RemoteWait } from "../router/handler.js";

/** The parts of a request's time, each in milliseconds; `totalMs` is their sum. */
export interface RequestTimes {
  readonly requestQueueMs: number;
  readonly localMs: number;
  readonly remoteMs: number;
  readonly responseQueueMs: number;
  readonly responseSendMs: number;
  readonly totalMs: number;
  /** The throttle time of its answer, for which the connection was muted (not in `totalMs`). */
  readonly throttleMs: number;
}

export class RequestTiming implements RemoteWait {
  private remoteMs = 0;
  private handledMs: number | undefined;
  private throttleMs = 0;

  /**
   * `arrivedMs`: when the request's frame was read whole; `takenUpMs`: when the connection took
   * it up for its handler. `request` is its name as Kafka's `request` label gives it.
   */
  constructor(
    private readonly clock: Clock,
    readonly request: string,
    readonly times: { readonly arrivedMs: number; readonly takenUpMs: number },
  ) {}

  /** Resolves as `promise` does, counting the wait as remote time. */
  async wait<T>(promise: Promise<T>): Promise<T> {
    const startMs = this.clock.monotonicMs();
    try {
      return await promise;
    } finally {
      this.remoteMs += this.clock.monotonicMs() - startMs;
    }
  }

  /** The request's time on this node so far: since taken up, without its remote waits. */
  localMsSoFar(): number {
    return this.clock.monotonicMs() - this.times.takenUpMs - this.remoteMs;
  }

  /**
   * The handler answered, throttled for `throttleMs` (0: not): from now the response waits for
   * its turn.
   */
  handled(throttleMs = 0): void {
    this.handledMs ??= this.clock.monotonicMs();
    this.throttleMs = throttleMs;
  }

  /** The parts, for a response whose turn came at `writtenMs` and that was sent at `sentMs`. */
  partsAt({ writtenMs, sentMs }: { readonly writtenMs: number; readonly sentMs: number }) {
    const { arrivedMs, takenUpMs } = this.times;
    const handledMs = this.handledMs ?? writtenMs;
    const remoteMs = Math.min(this.remoteMs, handledMs - takenUpMs);
    const parts: RequestTimes = {
      requestQueueMs: takenUpMs - arrivedMs,
      localMs: handledMs - takenUpMs - remoteMs,
      remoteMs,
      responseQueueMs: writtenMs - handledMs,
      responseSendMs: sentMs - writtenMs,
      totalMs: sentMs - arrivedMs,
      throttleMs: this.throttleMs,
    };
    return parts;
  }
}
