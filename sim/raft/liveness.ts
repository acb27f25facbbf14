/**
 * The distribution of liveness times over the seeds of a run: how long after the network healed
 * (with a majority up) a leader existed and a fresh proposal committed, in simulated ms.
 */

/** Collects liveness samples and summarises them. */
export class LivenessSamples {
  private readonly samples: number[] = [];

  /** Adds one seed's measurement. */
  add(durationMs: number): void {
    this.samples.push(durationMs);
  }

  /** How many samples were collected. */
  get count(): number {
    return this.samples.length;
  }

  /** The value below which `fraction` of the samples fall (nearest rank). */
  percentile(fraction: number): number {
    if (this.samples.length === 0) return Number.NaN;
    const sorted = [...this.samples].sort((left, right) => left - right);
    const rank = Math.max(1, Math.ceil(fraction * sorted.length));
    return sorted[Math.min(rank, sorted.length) - 1] as number;
  }

  /** One line: count, p50, p90, p99 and max. */
  summary(boundMs: number): string {
    if (this.samples.length === 0) return "raft liveness: no samples";
    const [p50, p90, p99, max] = [0.5, 0.9, 0.99, 1].map((fraction) => this.percentile(fraction));
    return (
      `raft liveness over ${this.samples.length} seeds (ms from heal to a committed fresh ` +
      `proposal; bound ${boundMs}): p50 ${p50} p90 ${p90} p99 ${p99} max ${max}`
    );
  }
}
