/**
 * The size ratchet: files longer than the file limit, functions longer than the function limit
 * and files with over-wide lines are allowed only at the size recorded in test/tidy/ratchet.json,
 * and the recorded sizes may only go down.
 */
import type { SourceFacts } from "./analyse.js";
import type { Offence } from "./offence.js";
import { fileLinesMax, functionLinesMax, lineWidthMax } from "./rules.js";

/** What the ratchet records for one file; an absent field means "within the limit". */
export interface FileEntry {
  readonly lines?: number;
  readonly wideLines?: number;
}

/** The content of ratchet.json. Keys are repository-relative paths, then function keys. */
export interface Ratchet {
  readonly files: Readonly<Record<string, FileEntry>>;
  readonly functions: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** The ratchet that holds nothing: every file and function must be within the limits. */
export const emptyRatchet: Ratchet = { files: {}, functions: {} };

/** Offences fail the test; hints say where the ratchet can be lowered or cleaned. */
export interface SizeReport {
  readonly offences: Offence[];
  readonly hints: string[];
}

/** Compares every file with the limits and the ratchet. Generated files are exempt. */
export function checkSizes(sources: readonly SourceFacts[], ratchet: Ratchet): SizeReport {
  const report: SizeReport = { offences: [], hints: [] };
  const seenFiles = new Set<string>();
  for (const facts of sources) {
    seenFiles.add(facts.path);
    if (facts.isGenerated) {
      if (ratchet.files[facts.path] !== undefined || ratchet.functions[facts.path] !== undefined) {
        report.hints.push(`${facts.path} is generated; remove its ratchet entries`);
      }
      continue;
    }
    checkFile(facts, ratchet.files[facts.path] ?? {}, report);
    checkFunctions(facts, ratchet.functions[facts.path] ?? {}, report);
  }
  for (const path of [...Object.keys(ratchet.files), ...Object.keys(ratchet.functions)]) {
    if (!seenFiles.has(path)) report.hints.push(`${path} no longer exists; remove its entries`);
  }
  return report;
}

/**
 * Adds an offence when `current` is above what is allowed (the recorded size, or `limit` when
 * nothing is recorded), and a hint when the record can be lowered or dropped.
 */
function ratchetOne(
  report: SizeReport,
  offence: Omit<Offence, "message">,
  sizes: { what: string; current: number; recorded: number | undefined; limit: number },
): void {
  const { what, current, recorded, limit } = sizes;
  const allowed = recorded ?? limit;
  if (current > allowed) {
    const record =
      recorded === undefined ? `the limit is ${limit}` : `the ratchet says ${recorded}`;
    report.offences.push({ ...offence, message: `${what} is ${current}; ${record}` });
  } else if (recorded !== undefined && current < recorded) {
    const action = current <= limit ? "remove the entry" : `lower the entry to ${current}`;
    report.hints.push(`${offence.path}: ${what} is ${current} < ${recorded} recorded; ${action}`);
  }
}

function checkFile(facts: SourceFacts, entry: FileEntry, report: SizeReport): void {
  ratchetOne(
    report,
    { rule: "file-size", path: facts.path, line: 0 },
    { what: "line count", current: facts.lineCount, recorded: entry.lines, limit: fileLinesMax },
  );
  const firstWide = facts.wideLines[0] ?? 0;
  ratchetOne(
    report,
    { rule: "line-width", path: facts.path, line: firstWide },
    {
      what: `the count of lines over ${lineWidthMax} characters (${wideList(facts.wideLines)})`,
      current: facts.wideLines.length,
      recorded: entry.wideLines,
      limit: 0,
    },
  );
}

function wideList(lines: readonly number[]): string {
  const shown = lines.slice(0, 8).map((line) => `line ${line}`);
  return lines.length > shown.length ? `${shown.join(", ")}, ...` : shown.join(", ");
}

function checkFunctions(
  facts: SourceFacts,
  entries: Readonly<Record<string, number>>,
  report: SizeReport,
): void {
  const seen = new Set<string>();
  for (const fact of facts.functions) {
    seen.add(fact.key);
    ratchetOne(
      report,
      { rule: "function-size", path: facts.path, line: fact.line },
      {
        what: `the length of ${fact.key}`,
        current: fact.lines,
        recorded: entries[fact.key],
        limit: functionLinesMax,
      },
    );
  }
  for (const key of Object.keys(entries)) {
    if (!seen.has(key)) report.hints.push(`${facts.path}: ${key} is gone; remove its entry`);
  }
}

/** The ratchet that records exactly the current sizes above the limits, in sorted order. */
export function computeRatchet(sources: readonly SourceFacts[]): Ratchet {
  const files: Record<string, FileEntry> = {};
  const functions: Record<string, Record<string, number>> = {};
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const facts of sorted) {
    if (facts.isGenerated) continue;
    const entry: { lines?: number; wideLines?: number } = {};
    if (facts.lineCount > fileLinesMax) entry.lines = facts.lineCount;
    if (facts.wideLines.length > 0) entry.wideLines = facts.wideLines.length;
    if (Object.keys(entry).length > 0) files[facts.path] = entry;
    const long = facts.functions.filter((fact) => fact.lines > functionLinesMax);
    if (long.length === 0) continue;
    functions[facts.path] = Object.fromEntries(long.map((fact) => [fact.key, fact.lines]));
  }
  return { files, functions };
}

/** Reads ratchet.json text, checking its shape so a hand edit cannot silently disable it. */
export function parseRatchet(text: string): Ratchet {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !isRecord(value["files"]) || !isRecord(value["functions"])) {
    throw new Error("ratchet.json must be { files: {...}, functions: {...} }");
  }
  for (const [path, entry] of Object.entries(value["files"])) {
    const isValid = isRecord(entry) && Object.values(entry).every((size) => Number.isInteger(size));
    if (!isValid) throw new Error(`ratchet.json: bad file entry for ${path}`);
  }
  for (const [path, entry] of Object.entries(value["functions"])) {
    const isValid = isRecord(entry) && Object.values(entry).every((size) => Number.isInteger(size));
    if (!isValid) throw new Error(`ratchet.json: bad function entries for ${path}`);
  }
  return value as unknown as Ratchet;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
