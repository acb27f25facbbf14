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
  /** Levels by the `component` field of a child logger, overriding `level` for it and below. */
  readonly componentLevels?: ReadonlyMap<string, LogLevel>;
  /** The line format (default "logfmt"). */
  readonly format?: LogFormat;
}

/** How a line is written: logfmt `key=value` pairs, or one JSON object. */
export type LogFormat = "logfmt" | "json";

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

/** One field value for a JSON line: errors as their text, bigints as strings. */
function jsonValue(value: unknown): unknown {
  if (value instanceof Error) return JSON.parse(formatValue(value)) as string;
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** The line of one event as a JSON object, or its text when a value cannot be shown as JSON. */
function jsonLine(entries: readonly [string, unknown][]): string {
  const object = Object.fromEntries(entries.map(([key, value]) => [key, jsonValue(value)]));
  try {
    return JSON.stringify(object, (_key, inner: unknown) =>
      typeof inner === "bigint" ? inner.toString() : inner,
    );
  } catch {
    // A cyclic value: each field alone, as logfmt shows it, so the line is still written.
    const shown = entries.map(([key, value]) => [key, formatValue(value)]);
    return JSON.stringify(Object.fromEntries(shown));
  }
}

/**
 * Writes one line per event to stderr in logfmt: `time=<ISO-8601> level=<level>
 * msg=<message> key=value ...`, or with format "json" the same fields as one JSON object. In
 * logfmt, values with spaces, quotes or other special characters are JSON strings; objects are
 * their JSON text as a JSON string; errors are `"Name: message (CODE)"`. A child logger whose
 * `component` has a level in `componentLevels` writes at that level.
 */
export class ConsoleLogger implements Logger {
  private readonly level: LogLevel;
  private readonly fields: LogFields;
  private readonly writeLine: (line: string) => void;
  private readonly clock: Clock;
  private readonly componentLevels: ReadonlyMap<string, LogLevel>;
  private readonly format: LogFormat;

  constructor(options: ConsoleLoggerOptions = {}) {
    this.level = options.level ?? "info";
    this.componentLevels = options.componentLevels ?? new Map();
    this.format = options.format ?? "logfmt";
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
    const component = fields["component"];
    const level = typeof component === "string" ? this.componentLevels.get(component) : undefined;
    return new ConsoleLogger({
      level: level ?? this.level,
      fields: { ...this.fields, ...fields },
      write: this.writeLine,
      clock: this.clock,
      componentLevels: this.componentLevels,
      format: this.format,
    });
  }

  private log(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (levelRank[level] < levelRank[this.level]) return;
    if (this.format === "json") {
      const time = new Date(this.clock.nowMs()).toISOString();
      const head: [string, unknown][] = [
        ["time", time],
        ["level", level],
        ["msg", message],
      ];
      this.writeLine(jsonLine([...head, ...Object.entries({ ...this.fields, ...fields })]));
      return;
    }
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
