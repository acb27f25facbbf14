/**
 * Small port doubles for the log manager's tests: a clock moved by hand, a seeded random
 * source and a logger that keeps its lines. Metrics go to sim/'s MemoryMetricsSink.
 */
import type { Clock, LogFields, Logger, Random } from "../../ports/index.js";

/** A clock that moves only when the test moves it. */
export class TestClock implements Clock {
  constructor(public currentMs = 1_700_000_000_000) {}
  nowMs(): number {
    return this.currentMs;
  }
  monotonicMs(): number {
    return this.currentMs;
  }
}

/** A seeded xorshift32 generator: the same seed gives the same draws. */
export class TestRandom implements Random {
  constructor(private state = 0x9e3779b9) {}
  nextUint32(): number {
    this.state ^= this.state << 13;
    this.state ^= this.state >>> 17;
    this.state ^= this.state << 5;
    this.state >>>= 0;
    return this.state;
  }
  nextFloat(): number {
    return this.nextUint32() / 2 ** 32;
  }
  nextInt(boundExclusive: number): number {
    return Math.floor(this.nextFloat() * boundExclusive);
  }
  fill(target: Uint8Array): Uint8Array {
    for (let index = 0; index < target.length; index++) target[index] = this.nextUint32() & 0xff;
    return target;
  }
}

/** One kept log line. */
export interface LogLine {
  readonly level: string;
  readonly message: string;
  readonly fields: LogFields;
}

/** A logger that keeps every line, children included, in one list. */
export class TestLogger implements Logger {
  constructor(
    readonly lines: LogLine[] = [],
    private readonly base: LogFields = {},
  ) {}
  private add(level: string, message: string, fields: LogFields = {}): void {
    this.lines.push({ level, message, fields: { ...this.base, ...fields } });
  }
  debug(message: string, fields?: LogFields): void {
    this.add("debug", message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.add("info", message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.add("warn", message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.add("error", message, fields);
  }
  child(fields: LogFields): Logger {
    return new TestLogger(this.lines, { ...this.base, ...fields });
  }
}
