/**
 * The character tables and escapes of the topic regex translation (topic-regex.ts), and its
 * case folding.
 * JavaScript's RegExp on Node 20 has no scoped flags (`(?i:...)`), so a case-insensitive part of
 * a pattern is rewritten instead: each ASCII letter becomes a class of both its cases, and a
 * class gains the other case of its letters and letter ranges. Topic names hold only ASCII
 * letters, digits, `.`, `_` and `-`, so ASCII folding decides every match. Pure.
 */

/** A pattern RE2 refuses, or a part of one this translation does not support. */
export class RegexSyntaxError extends Error {}

/** What a reader took from a pattern, and where the pattern goes on. */
export interface Read<T> {
  readonly value: T;
  readonly at: number;
}

export const POSIX_CLASSES: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7f",
  blank: "\\t ",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-\\/:-@\\[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

/** Unicode general categories, which JavaScript names as RE2 does; others are scripts. */
export const GENERAL_CATEGORIES = new Set(
  (
    "C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps " +
    "S Sc Sk Sm So Z Zl Zp Zs"
  ).split(" "),
);

/** `\pN`, `\p{Greek}`, `\P{^L}` after the letter at `at`: its JavaScript form. */
export function unicodeClassAt(pattern: string, at: number, letter: "p" | "P"): Read<string> {
  let name: string;
  let next: number;
  if (pattern[at] === "{") {
    const end = pattern.indexOf("}", at);
    if (end === -1) throw new RegexSyntaxError("invalid character class range: missing }");
    name = pattern.slice(at + 1, end);
    next = end + 1;
  } else {
    name = pattern[at] ?? "";
    next = at + 1;
  }
  const isNegated = name.startsWith("^");
  if (isNegated) name = name.slice(1);
  if (!/^[A-Za-z_]+$/.test(name)) {
    throw new RegexSyntaxError(`invalid character class range: \`\\${letter}{${name}}\``);
  }
  const property = GENERAL_CATEGORIES.has(name) ? name : `Script=${name}`;
  const negated = (letter === "P") !== isNegated;
  return { value: `\\${negated ? "P" : "p"}{${property}}`, at: next };
}

/** `\x41` or `\x{1F600}` after the `x` at `at`: the code point. */
export function hexEscapeAt(pattern: string, at: number): Read<number> {
  if (pattern[at] === "{") {
    const end = pattern.indexOf("}", at);
    const digits = end === -1 ? "" : pattern.slice(at + 1, end);
    if (!/^[0-9A-Fa-f]{1,8}$/.test(digits) || Number.parseInt(digits, 16) > 0x10ffff) {
      throw new RegexSyntaxError("invalid escape sequence: `\\x{`");
    }
    return { value: Number.parseInt(digits, 16), at: end + 1 };
  }
  const digits = pattern.slice(at, at + 2);
  if (!/^[0-9A-Fa-f]{2}$/.test(digits))
    throw new RegexSyntaxError("invalid escape sequence: `\\x`");
  return { value: Number.parseInt(digits, 16), at: at + 2 };
}

/**
 * `\0`, `\012`, `\12` from the digit `first` before `at`: octal; a lone `\1`..`\7` would be a
 * backreference, which RE2 lacks.
 */
export function octalEscapeAt(pattern: string, at: number, first: string): Read<number> {
  let digits = first;
  let next = at;
  while (digits.length < 3 && /[0-7]/.test(pattern[next] ?? "")) {
    digits += pattern[next];
    next += 1;
  }
  if (first !== "0" && digits.length === 1) {
    throw new RegexSyntaxError(`invalid escape sequence: \`\\${first}\``);
  }
  return { value: Number.parseInt(digits, 8), at: next };
}

/** One character as a JavaScript pattern literal (ASCII punctuation as a hex escape). */
export function literal(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x80 || /[A-Za-z0-9_]/.test(char)) return char;
  return `\\x${code.toString(16).padStart(2, "0")}`;
}

/** The other case of an ASCII letter, or undefined for any other character. */
export function otherCase(char: string): string | undefined {
  if (!/^[A-Za-z]$/.test(char)) return undefined;
  const lower = char.toLowerCase();
  return lower === char ? char.toUpperCase() : lower;
}

/** One character outside a class, matching both cases when `isFolding`. */
export function literalFolded(char: string, isFolding: boolean): string {
  const other = isFolding ? otherCase(char) : undefined;
  return other === undefined ? literal(char) : `[${char}${other}]`;
}

/** What a class holding the range `low`-`high` gains to match both cases: the other case. */
export function rangeCounterparts(low: string, high: string): string {
  const from = low.codePointAt(0) ?? 0;
  const to = high.codePointAt(0) ?? 0;
  let out = "";
  for (const [start, end, shift] of [
    [0x41, 0x5a, 0x20],
    [0x61, 0x7a, -0x20],
  ] as const) {
    const first = Math.max(from, start);
    const last = Math.min(to, end);
    if (first <= last) {
      out += `${String.fromCodePoint(first + shift)}-${String.fromCodePoint(last + shift)}`;
    }
  }
  return out;
}
