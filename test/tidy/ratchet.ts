/**
 * The length rule. A file may have up to 300 lines (the soft limit). A longer file must own one
 * state machine and say so in its first comment, may never pass 600 lines (the hard cap), and is
 * allowed only at the size test/tidy/ratchet.json records for it: it may hold or shrink. Growing
 * such a file means raising its entry in the same commit, with the reason in the message, so the
 * growth is seen in review. Functions have a hard ceiling of 70 lines, lines one of 100
 * characters. Generated files are exempt.
 */
import type { SourceFacts } from "./analyse.js";
import type { Offence } from "./offence.js";
import { fileLinesHardMax, fileLinesMax, functionLinesMax, lineWidthMax } from "./rules.js";

/** The content of ratchet.json: the recorded line count of each file over the soft limit. */
export interface Ratchet {
  readonly files: Readonly<Record<string, number>>;
}

/** The ratchet that holds nothing: every file must be within the soft limit. */
export const emptyRatchet: Ratchet = { files: {} };

/** Offences fail the test; hints say where the ratchet can be lowered or cleaned. */
export interface SizeReport {
  readonly offences: Offence[];
  readonly hints: string[];
}

/** Compares every file with the limits and the ratchet. */
export function checkSizes(sources: readonly SourceFacts[], ratchet: Ratchet): SizeReport {
  const report: SizeReport = { offences: [], hints: [] };
  const seenFiles = new Set<string>();
  for (const facts of sources) {
    seenFiles.add(facts.path);
    const recorded = ratchet.files[facts.path];
    if (facts.isGenerated) {
      if (recorded !== undefined) report.hints.push(`${facts.path} is generated; remove its entry`);
      continue;
    }
    checkFileLength(facts, recorded, report);
    checkLineWidth(facts, report);
    checkFunctions(facts, report);
  }
  for (const path of Object.keys(ratchet.files)) {
    if (!seenFiles.has(path)) report.hints.push(`${path} no longer exists; remove its entry`);
  }
  return report;
}

function checkFileLength(facts: SourceFacts, recorded: number | undefined, report: SizeReport) {
  const { path, lineCount } = facts;
  const offence = (message: string) =>
    report.offences.push({ rule: "file-size", path, line: 0, message });
  if (lineCount <= fileLinesMax) {
    if (recorded !== undefined) {
      report.hints.push(`${path}: ${lineCount} lines, within ${fileLinesMax}; remove the entry`);
    }
    return;
  }
  if (!facts.declaresStateMachine) {
    offence(
      `line count is ${lineCount}; the limit is ${fileLinesMax}, or ${fileLinesHardMax} for a ` +
        `file whose first comment says it owns one state machine`,
    );
  } else if (lineCount > fileLinesHardMax) {
    offence(`line count is ${lineCount}; the hard cap is ${fileLinesHardMax}`);
  } else if (recorded === undefined) {
    offence(`line count is ${lineCount}; record it in test/tidy/ratchet.json to allow it`);
  } else if (lineCount > recorded) {
    offence(`line count is ${lineCount}; the ratchet says ${recorded}`);
  } else if (lineCount < recorded) {
    report.hints.push(`${path}: ${lineCount} lines < ${recorded} recorded; lower the entry`);
  }
}

function checkLineWidth(facts: SourceFacts, report: SizeReport): void {
  const [first] = facts.wideLines;
  if (first === undefined) return;
  const shown = facts.wideLines.slice(0, 8).map((line) => `line ${line}`);
  const more = facts.wideLines.length > shown.length ? ", ..." : "";
  report.offences.push({
    rule: "line-width",
    path: facts.path,
    line: first,
    message: `lines over ${lineWidthMax} characters: ${shown.join(", ")}${more}`,
  });
}

function checkFunctions(facts: SourceFacts, report: SizeReport): void {
  for (const fact of facts.functions) {
    if (fact.lines <= functionLinesMax) continue;
    report.offences.push({
      rule: "function-size",
      path: facts.path,
      line: fact.line,
      message: `the length of ${fact.key} is ${fact.lines}; the limit is ${functionLinesMax}`,
    });
  }
}

/** The ratchet that records exactly the current sizes of the files over the soft limit. */
export function computeRatchet(sources: readonly SourceFacts[]): Ratchet {
  const files: Record<string, number> = {};
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const facts of sorted) {
    if (!facts.isGenerated && facts.lineCount > fileLinesMax) files[facts.path] = facts.lineCount;
  }
  return { files };
}

/** Reads ratchet.json text, checking its shape so a hand edit cannot silently disable it. */
export function parseRatchet(text: string): Ratchet {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !isRecord(value["files"])) {
    throw new Error('ratchet.json must be { "files": { "<path>": <lines>, ... } }');
  }
  const files: Record<string, number> = {};
  for (const [path, lines] of Object.entries(value["files"])) {
    if (typeof lines !== "number" || !Number.isInteger(lines)) {
      throw new Error(`ratchet.json: the entry for ${path} is not a line count`);
    }
    files[path] = lines;
  }
  return { files };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
