/**
 * The history of one run, as Jepsen records it: each client operation is an `invoke` followed
 * by its outcome, `ok` (it happened), `fail` (it certainly did not) or `info` (unknown: it may
 * have happened). Sends carry the value and, when acknowledged, the offset; polls are recorded
 * as one `ok` per record read; commits as one `ok` per partition committed. Written as JSON
 * lines; the checkers read nothing else besides the final read-back and the replicas' files.
 */
import { appendFileSync } from "node:fs";

export type OperationType = "invoke" | "ok" | "fail" | "info";

export interface HistoryEvent {
  /** Milliseconds since the run started. */
  readonly time: number;
  /** The client that acted, e.g. `kcat-0` or `kafkajs-1`. */
  readonly process: string;
  readonly type: OperationType;
  /** `send`, `poll`, `commit`, `assign` (a consumer's new assignment) or a fault's name. */
  readonly f: string;
  readonly partition?: number;
  readonly value?: string;
  readonly offset?: number;
  readonly partitions?: readonly number[];
  readonly error?: string;
}

export class History {
  readonly events: HistoryEvent[] = [];
  private readonly started = performance.now();

  constructor(private readonly path: string | null) {}

  add(event: Omit<HistoryEvent, "time">): void {
    const full = { time: Math.round(performance.now() - this.started), ...event };
    this.events.push(full);
    if (this.path !== null) appendFileSync(this.path, JSON.stringify(full) + "\n");
  }

  /** Milliseconds since the run started. */
  now(): number {
    return performance.now() - this.started;
  }
}
