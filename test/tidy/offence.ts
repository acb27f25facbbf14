/** What the tidy rules report: offences fail the test, hints only advise. */

/** The rule an offence breaks; each has its own test in tidy.test.ts. */
export type RuleName =
  | "node-import"
  | "banned-api"
  | "unchecked-import"
  | "deep-import"
  | "module-map"
  | "import-cycle"
  | "file-size"
  | "function-size"
  | "line-width"
  | "folder-layout"
  | "unchecked-cast"
  | "untyped-body"
  | "message-cast";

/** One place in one file that breaks one rule. Line 0 means the file as a whole. */
export interface Offence {
  readonly rule: RuleName;
  readonly path: string;
  readonly line: number;
  readonly message: string;
}

/** One line per offence, "path:line: [rule] message", sorted by path and line. */
export function formatOffences(offences: readonly Offence[]): string {
  return [...offences]
    .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1))
    .map((offence) => {
      const place = offence.line > 0 ? `${offence.path}:${offence.line}` : offence.path;
      return `${place}: [${offence.rule}] ${offence.message}`;
    })
    .join("\n");
}
