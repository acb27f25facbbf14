/**
 * A connection's mute for a throttled client (KIP-219): Kafka answers a request that took its
 * client past a quota at once, with the throttle time in the response, and stops reading from
 * the connection until that time has passed. A later throttle that ends sooner leaves the
 * current one; one that ends later extends it.
 */
import type { Clock, Timer, Timers } from "../../ports/index.js";
import { throttleTimeOf, type RoutedResponse } from "../router/request-router.driver.js";

export class ConnectionThrottle {
  private timer: Timer | undefined;
  private untilMs = 0;

  /** `onEnd` runs when the mute is over, not when it is cancelled. */
  constructor(
    private readonly ports: { readonly clock: Clock; readonly timers: Timers },
    private readonly onEnd: () => void,
  ) {}

  get isThrottled(): boolean {
    return this.timer !== undefined;
  }

  /** Mutes for `throttleTimeMs` from now, or longer if already muted longer. */
  start(throttleTimeMs: number): void {
    if (!(throttleTimeMs > 0)) return;
    const untilMs = this.ports.clock.monotonicMs() + throttleTimeMs;
    if (this.timer !== undefined && untilMs <= this.untilMs) return;
    this.timer?.cancel();
    this.untilMs = untilMs;
    this.timer = this.ports.timers.schedule(throttleTimeMs, () => {
      this.timer = undefined;
      this.onEnd();
    });
  }

  /** Mutes for the throttle time of `response`, if it has one; answers that time (0: none). */
  startAfter(response: RoutedResponse): number {
    const throttleTimeMs = throttleTimeOf(response);
    this.start(throttleTimeMs);
    return throttleTimeMs;
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }
}
