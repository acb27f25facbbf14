import type { Clock, LogFields, Logger, LogLevel } from "../ports/index.js";
import { SystemClock } from "./system-clock.js";

const levelRank: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface ConsoleLoggerOptions {
  /** The least severe level written (default "info"). */
  readonly level?: LogLevel;
  /** Fields added to every line. */
  readonly fields?: LogFields;
  /** Where lines go (default: process.stderr, one write per line). */
  readonly write?: (line: string) => void;
  /** The source of the timestamp (default: the system clock). */
  readonly clock?: Clock;
}

/** True when `text` can be written after `key=` without quotes and read back unambiguously. */
function isBare(text: string): boolean {
  return text.length > 0 && /^[A-Za-z0-9_.:/@+-]+$/.test(text);
}

/** One field value as logfmt text: bare when safe, otherwise a JSON string. */
export function formatValue(value: unknown): string {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    const text = `${value.name}: ${value.message}${typeof code === "string" ? ` (${code})` : ""}`;
    return JSON.stringify(text);
  }
  if (typeof value === "string") return isBare(value) ? value : JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return String(value);
  }
  if (value === undefined || value === null) return String(value);
  try {
    const json = JSON.stringify(value, (_key, inner: unknown) =>
      typeof inner === "bigint" ? inner.toString() : inner,
    );
    return JSON.stringify(json ?? String(value));
  } catch {
    // A cyclic object cannot be shown as JSON; the line is still written without it.
    return JSON.stringify("[unserializable]");
  }
}

/**
 * Writes one line per event to stderr in logfmt: `time=<ISO-8601> level=<level>
 * msg=<message> key=value ...`. Values with spaces, quotes or other special characters are JSON
 * strings; objects are their JSON text as a JSON string; errors are `"Name: message (CODE)"`.
 */
export class ConsoleLogger implements Logger {
  private readonly level: LogLevel;
  private readonly fields: LogFields;
  private readonly writeLine: (line: string) => void;
  private readonly clock: Clock;

  constructor(options: ConsoleLoggerOptions = {}) {
    this.level = options.level ?? "info";
    this.fields = options.fields ?? {};
    this.writeLine = options.write ?? ((line) => process.stderr.write(`${line}\n`));
    this.clock = options.clock ?? new SystemClock();
  }

  debug(message: string, fields?: LogFields): void {
    this.log("debug", message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.log("info", message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.log("warn", message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.log("error", message, fields);
  }

  child(fields: LogFields): Logger {
    return new ConsoleLogger({
      level: this.level,
      fields: { ...this.fields, ...fields },
      write: this.writeLine,
      clock: this.clock,
    });
  }

  private log(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (levelRank[level] < levelRank[this.level]) return;
    const parts = [
      `time=${new Date(this.clock.nowMs()).toISOString()}`,
      `level=${level}`,
      `msg=${formatValue(message)}`,
    ];
    for (const [key, value] of Object.entries({ ...this.fields, ...fields })) {
      parts.push(`${key}=${formatValue(value)}`);
    }
    this.writeLine(parts.join(" "));
  }
}
