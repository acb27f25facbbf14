/**
 * A one-time event others may wait for (registered, caught up, unfenced). The promise is made on
 * the first wait only, so a milestone nobody waits for never leaves a rejected promise behind
 * (which Node would report as unhandled).
 */

type Outcome<T> =
  | { readonly kind: "pending" }
  | { readonly kind: "reached"; readonly value: T }
  | { readonly kind: "abandoned"; readonly error: Error };

/** A value that arrives once, or never (abandoned with an error). */
export class Milestone<T> {
  private outcome: Outcome<T> = { kind: "pending" };
  private waiters: { resolve: (value: T) => void; reject: (error: Error) => void }[] = [];

  /** Whether the milestone was reached. */
  get isReached(): boolean {
    return this.outcome.kind === "reached";
  }

  /** Resolves when the milestone is reached; rejects if it is abandoned first. */
  wait(): Promise<T> {
    const outcome = this.outcome;
    if (outcome.kind === "reached") return Promise.resolve(outcome.value);
    if (outcome.kind === "abandoned") return Promise.reject(outcome.error);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Marks the milestone reached; later calls (and a later abandon) change nothing. */
  reach(value: T): void {
    if (this.outcome.kind !== "pending") return;
    this.outcome = { kind: "reached", value };
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.resolve(value);
  }

  /** Gives up on a pending milestone: its waiters are rejected with `error`. */
  abandon(error: Error): void {
    if (this.outcome.kind !== "pending") return;
    this.outcome = { kind: "abandoned", error };
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}

/** The lifecycle stopped before the awaited milestone; the node should stop starting up. */
export class BrokerLifecycleStoppedError extends Error {
  override readonly name = "BrokerLifecycleStoppedError";
  constructor(milestone: string, reason: string, options?: { cause?: unknown }) {
    super(`the broker lifecycle stopped before it was ${milestone}: ${reason}`, options);
  }
}
