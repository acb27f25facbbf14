import { assert } from "../src/common/index.js";
import { Fnv1a64 } from "./hash.js";

/** Options of a Trace. */
export interface TraceOptions {
  /** How many of the latest lines are kept for failure reports (default 200). */
  readonly recentLinesMax?: number;
  /** Keep every line (for comparing two runs line by line); default false. */
  readonly keepAll?: boolean;
}

/**
 * The record of a simulation run: every event, I/O operation and network delivery appends a
 * line. The hash covers every line, so two runs with the same hash did the same things in the
 * same order; only the latest lines are kept in memory.
 */
export class Trace {
  private readonly hash = new Fnv1a64();
  private readonly recent: string[] = [];
  private readonly all: string[] | undefined;
  private readonly recentLinesMax: number;
  private count = 0;

  constructor(options: TraceOptions = {}) {
    this.recentLinesMax = options.recentLinesMax ?? 200;
    assert(this.recentLinesMax >= 0, "recentLinesMax must be >= 0");
    this.all = options.keepAll === true ? [] : undefined;
  }

  /** Appends one line. */
  record(line: string): void {
    this.hash.updateText(line).updateText("\n");
    this.count += 1;
    this.all?.push(line);
    if (this.recentLinesMax === 0) return;
    if (this.recent.length === this.recentLinesMax) this.recent.shift();
    this.recent.push(line);
  }

  /** The FNV-1a 64 hash of all lines so far, as 16 hex digits. */
  traceHash(): string {
    return this.hash.hex();
  }

  /** How many lines were recorded. */
  get lineCount(): number {
    return this.count;
  }

  /** The latest lines, oldest first. */
  recentLines(): readonly string[] {
    return this.recent;
  }

  /** Every line, when the trace was made with `keepAll`. */
  allLines(): readonly string[] | undefined {
    return this.all;
  }
}
