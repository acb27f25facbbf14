/**
 * How many files the partition logs may keep open (`sluice.log.max.open.files`) within the
 * process's limit on open files: the logs get at most half of it, so that connections, the
 * metadata log, checkpoint writes and the runtime always find descriptors left.
 */
import type { Logger } from "../ports/index.js";

/** The fewest open files the logs are given, whatever the limit (a segment's three and more). */
export const MIN_LOG_OPEN_FILES = 16;

/** `configured`, lowered to half of `processLimit` when that is known and smaller. */
export function logOpenFileBudget(configured: number, processLimit: number | undefined): number {
  if (processLimit === undefined) return configured;
  return Math.min(configured, Math.max(MIN_LOG_OPEN_FILES, Math.floor(processLimit / 2)));
}

/** Logs the process's limit and the logs' budget at start, and how to raise them. */
export function reportOpenFileBudget(
  logger: Logger,
  facts: { readonly configured: number; readonly processLimit: number | undefined },
): number {
  const budget = logOpenFileBudget(facts.configured, facts.processLimit);
  const limit = facts.processLimit ?? "unknown";
  logger.info("open file limit", { processLimit: limit, logMaxOpenFiles: budget });
  if (budget < facts.configured) {
    logger.warn(
      "sluice.log.max.open.files is lowered to half the process's open-file limit; raise the " +
        "limit (ulimit -n, LimitNOFILE= in a systemd unit, nofile in limits.conf) to keep " +
        "more open",
      { configured: facts.configured, processLimit: limit, logMaxOpenFiles: budget },
    );
  }
  return budget;
}
