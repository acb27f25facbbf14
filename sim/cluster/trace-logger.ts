/**
 * A Logger port that writes into the simulation's trace, so a failing seed's replay shows what
 * the controllers said (elections, activations, refusals) among the scheduler's events. Debug
 * lines are left out to keep the trace short.
 */
import type { LogFields, Logger } from "../../src/ports/index.js";
import type { Scheduler } from "../scheduler.js";

/** Logs to the trace with the node's name in front. */
export class TraceLogger implements Logger {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly prefix: string,
  ) {}

  debug(): void {}

  info(message: string, fields?: LogFields): void {
    this.write("info", message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write("warn", message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write("error", message, fields);
  }

  child(): Logger {
    return this;
  }

  private write(level: string, message: string, fields: LogFields | undefined): void {
    const detail = fields === undefined ? "" : ` ${JSON.stringify(fields)}`;
    this.scheduler.record(`${this.prefix} ${level} ${message}${detail}`);
  }
}
