import { readFileSync } from "node:fs";

/**
 * The process's limit on open files (the soft RLIMIT_NOFILE, which Node raises to the hard limit
 * as it starts), read from /proc/self/limits; undefined where that file does not exist or does
 * not say (not Linux), or the limit is unlimited.
 */
export function readOpenFileLimit(): number | undefined {
  let text: string;
  try {
    text = readFileSync("/proc/self/limits", "utf8");
  } catch {
    // Not Linux, or /proc is not mounted: the limit is not known, and the caller says so.
    return undefined;
  }
  return parseOpenFileLimit(text);
}

/** The soft "Max open files" of a /proc/<pid>/limits text. */
export function parseOpenFileLimit(text: string): number | undefined {
  const line = text.split("\n").find((each) => each.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  if (soft === undefined || !/^\d+$/.test(soft)) return undefined;
  const limit = Number(soft);
  return Number.isSafeInteger(limit) ? limit : undefined;
}
