/**
 * The regular expressions of KIP-848 subscriptions (ConsumerGroupHeartbeat v1
 * SubscribedTopicRegex). Kafka compiles them with RE2/J and keeps the topics whose whole name
 * matches (`Pattern.matcher(name).matches()`); here the RE2 syntax is translated into a
 * JavaScript RegExp with the `u` flag, anchored at both ends. Where the two dialects differ:
 *
 * - RE2 has no backreferences, lookaround or atomic groups: they are refused, as RE2/J does;
 * - `\Q...\E`, `\A`, `\z`, `\pN`, `\p{Greek}`, `\x{...}`, octal escapes and `[[:alpha:]]`
 *   classes are rewritten into their JavaScript forms;
 * - a `{` that does not start a repetition, and `}` or `]` outside a class, are literals;
 *   repetition counts above 1000 are refused (RE2's limit);
 * - the flags `m`, `s` and `U` change nothing for a whole-name match on a topic name (which
 *   holds no line break, and greediness does not change whether an anchored pattern matches),
 *   so they are accepted and dropped; `(?i)` at the very start makes the pattern case
 *   insensitive (the RegExp flag `i`); `i` set or cleared anywhere else applies to the rest of
 *   its group, or to the group it opens, as in RE2, by folding the letters of that part
 *   (topic-regex-chars.ts), where a Unicode class (`\p`) or a range with an escaped end is
 *   refused as not supported.
 *
 * A refusal is INVALID_REGULAR_EXPRESSION for the heartbeat that brought the pattern.
 */

import {
  POSIX_CLASSES,
  RegexSyntaxError,
  hexEscapeAt,
  literal,
  literalFolded,
  octalEscapeAt,
  otherCase,
  rangeCounterparts,
  unicodeClassAt,
} from "./topic-regex-chars.js";

export type CompiledTopicRegex =
  | { readonly kind: "valid"; readonly matches: (topicName: string) => boolean }
  | { readonly kind: "invalid"; readonly description: string };

/** RE2's bound on `{n,m}` repetition counts. */
const REPEAT_COUNT_MAX = 1000;

/** An `i` flag past the start: the pattern is translated again, folding case by hand. */
class ScopedCaseFlag extends RegexSyntaxError {}

export function compileTopicRegex(pattern: string): CompiledTopicRegex {
  let source: string;
  let flags = "u";
  try {
    const translated = translate(pattern);
    source = translated.source;
    if (translated.isCaseInsensitive) flags += "i";
  } catch (error) {
    if (error instanceof RegexSyntaxError) return { kind: "invalid", description: error.message };
    throw error;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${source})$`, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const description = message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
    return { kind: "invalid", description };
  }
  return { kind: "valid", matches: (topicName) => regex.test(topicName) };
}

/** With the RegExp flag `i` for a leading `(?i)`, or folding case where `i` is scoped. */
function translate(pattern: string): { source: string; isCaseInsensitive: boolean } {
  try {
    return new Translator(pattern, false).translate();
  } catch (error) {
    if (!(error instanceof ScopedCaseFlag)) throw error;
    return new Translator(pattern, true).translate();
  }
}

const RANGE_NOT_FOLDED = "a range with an escaped end in a case-insensitive part is not supported";

/** One pass over an RE2 pattern, writing the JavaScript equivalent. */
class Translator {
  private at = 0;
  private out = "";
  private isCaseInsensitive = false;
  /** Whether letters here match both cases (a scoped `i`), and that of each open group. */
  private isFolding = false;
  private readonly foldingOfGroups: boolean[] = [];

  constructor(
    private readonly pattern: string,
    private readonly isScoped: boolean,
  ) {}

  translate(): { source: string; isCaseInsensitive: boolean } {
    while (this.at < this.pattern.length) {
      const char = this.pattern[this.at] ?? "";
      if (char === "\\") this.out += this.escape(false);
      else if (char === "[") this.out += this.characterClass();
      else if (char === "(") this.out += this.group();
      else if (char === "{") this.out += this.brace();
      else if (char === "}" || char === "]") {
        this.out += `\\${char}`;
        this.at += 1;
      } else {
        // A group's end brings back the folding from before it.
        if (char === ")") this.isFolding = this.foldingOfGroups.pop() ?? this.isFolding;
        const other = this.isFolding ? otherCase(char) : undefined;
        this.out += other === undefined ? char : `[${char}${other}]`;
        this.at += 1;
      }
    }
    return { source: this.out, isCaseInsensitive: this.isCaseInsensitive };
  }

  /** An escape at `at` (a backslash); inside a class `\A`, `\z` and `\Q` are not allowed. */
  private escape(isInClass: boolean): string {
    const next = this.pattern[this.at + 1];
    if (next === undefined) throw new RegexSyntaxError("trailing backslash at end of expression");
    this.at += 2;
    if (next === "Q" && !isInClass) return this.quoted();
    if (!isInClass && next === "A") return "^";
    if (!isInClass && next === "z") return "$";
    if (!isInClass && (next === "b" || next === "B")) return `\\${next}`;
    if ("dDwWsS".includes(next)) return `\\${next}`;
    if ("tnrfv".includes(next)) return `\\${next}`;
    if (next === "a") return "\\x07";
    if ((next === "p" || next === "P") && this.isFolding) {
      throw new RegexSyntaxError("a Unicode class in a case-insensitive part is not supported");
    }
    if (next === "p" || next === "P") return this.take(unicodeClassAt(this.pattern, this.at, next));
    if (next === "x")
      return this.codePoint(this.take(hexEscapeAt(this.pattern, this.at)), isInClass);
    if (next >= "0" && next <= "7") {
      return this.codePoint(this.take(octalEscapeAt(this.pattern, this.at, next)), isInClass);
    }
    if (/[\p{L}\p{N}_]/u.test(next)) {
      throw new RegexSyntaxError(`invalid escape sequence: \`\\${next}\``);
    }
    return literal(next);
  }

  /** `\Q...\E`: everything up to `\E` (or the end) is literal. */
  private quoted(): string {
    const end = this.pattern.indexOf("\\E", this.at);
    const text = this.pattern.slice(this.at, end === -1 ? undefined : end);
    this.at = end === -1 ? this.pattern.length : end + 2;
    return [...text].map((char) => literalFolded(char, this.isFolding)).join("");
  }

  /** A character by its code point; in a folded part a letter matches both cases. */
  private codePoint(code: number, isInClass: boolean): string {
    const char = String.fromCodePoint(code);
    const other = this.isFolding ? otherCase(char) : undefined;
    if (other === undefined) return `\\u{${code.toString(16)}}`;
    if (isInClass && this.pattern[this.at] === "-" && this.pattern[this.at + 1] !== "]") {
      throw new RegexSyntaxError(RANGE_NOT_FOLDED);
    }
    return isInClass ? `${char}${other}` : `[${char}${other}]`;
  }

  /** Moves past what a reader of the pattern took; what it read. */
  private take<T>(read: { readonly value: T; readonly at: number }): T {
    this.at = read.at;
    return read.value;
  }

  /** `[...]` with RE2's POSIX classes and a leading `]` taken literally. */
  private characterClass(): string {
    this.at += 1;
    let out = "[";
    if (this.pattern[this.at] === "^") {
      out += "^";
      this.at += 1;
    }
    let isFirst = true;
    for (;;) {
      const char = this.pattern[this.at];
      if (char === undefined) throw new RegexSyntaxError("missing closing ]");
      if (char === "]" && !isFirst) break;
      const isFirstItem = isFirst;
      isFirst = false;
      if (char === "\\") {
        out += this.escape(true);
      } else if (char === "[" && this.pattern[this.at + 1] === ":") {
        out += this.posixClass();
      } else if (this.isFolding) {
        out += this.foldedClassItem(char, isFirstItem);
      } else {
        out += "[]{}()|/".includes(char) ? literal(char) : char;
        this.at += 1;
      }
    }
    this.at += 1;
    return `${out}]`;
  }

  /** A character of a class in a folded part, or a range of two, with their other case. */
  private foldedClassItem(char: string, isFirst: boolean): string {
    const next = this.pattern[this.at + 1];
    const end = this.pattern[this.at + 2];
    const plain = (item: string) => ("[]{}()|/".includes(item) ? literal(item) : item);
    if (char === "-" && !isFirst && next !== "]") throw new RegexSyntaxError(RANGE_NOT_FOLDED);
    if (next === "-" && end !== undefined && end !== "]") {
      if (end === "\\" || end === "[") throw new RegexSyntaxError(RANGE_NOT_FOLDED);
      this.at += 3;
      return `${plain(char)}-${plain(end)}${rangeCounterparts(char, end)}`;
    }
    this.at += 1;
    return `${plain(char)}${otherCase(char) ?? ""}`;
  }

  private posixClass(): string {
    const end = this.pattern.indexOf(":]", this.at + 2);
    let name = end === -1 ? "" : this.pattern.slice(this.at + 2, end);
    const isNegated = name.startsWith("^");
    if (isNegated) name = name.slice(1);
    const ranges = POSIX_CLASSES[name];
    if (ranges === undefined) {
      throw new RegexSyntaxError(`invalid character class range: \`[:${name}:]\``);
    }
    this.at = end + 2;
    // A negated POSIX class inside a class needs a nested negation JavaScript lacks here.
    if (isNegated) throw new RegexSyntaxError(`negated POSIX class \`[:^${name}:]\` not supported`);
    const isCased = name === "lower" || name === "upper";
    return this.isFolding && isCased ? "A-Za-z" : ranges;
  }

  /** `(` and the Perl group forms RE2 knows: `(?:`, `(?P<name>`, `(?<name>`, flags. */
  private group(): string {
    if (this.pattern[this.at + 1] !== "?") {
      this.foldingOfGroups.push(this.isFolding);
      this.at += 1;
      return "(";
    }
    const rest = this.pattern.slice(this.at + 2);
    const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
    if (named !== null) {
      this.foldingOfGroups.push(this.isFolding);
      this.at += 2 + named[0].length;
      return "(?:";
    }
    const flags = /^([A-Za-z]*)(?:-([A-Za-z]*))?([:)])/.exec(rest);
    if (flags === null) {
      throw new RegexSyntaxError(`invalid or unsupported Perl syntax: \`(?${rest.slice(0, 1)}\``);
    }
    const [whole, enabled = "", disabled = "", end] = flags;
    if (/[^imsU]/.test(enabled + disabled) || (flags[2] !== undefined && disabled === "")) {
      throw new RegexSyntaxError(`invalid or unsupported Perl syntax: \`(?${whole}\``);
    }
    if (end === ")" && enabled === "" && disabled === "") {
      throw new RegexSyntaxError("invalid or unsupported Perl syntax: `(?)`");
    }
    const isLeadingCaseFlag = this.at === 0 && end === ")" && disabled === "";
    const setsCase = enabled.includes("i") || disabled.includes("i");
    if (!this.isScoped && setsCase) {
      if (enabled.includes("i") && isLeadingCaseFlag) this.isCaseInsensitive = true;
      else throw new ScopedCaseFlag("the flag i past the start");
    }
    this.at += 2 + whole.length;
    // `(?i:` folds its group only; `(?i)` the rest of the group it is in.
    if (end === ":") this.foldingOfGroups.push(this.isFolding);
    if (this.isScoped && setsCase) this.isFolding = !disabled.includes("i");
    return end === ":" ? "(?:" : "";
  }

  /** `{n}`, `{n,}`, `{n,m}` repeat (counts at most 1000); any other `{` is a literal. */
  private brace(): string {
    const repeat = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.at));
    if (repeat === null) {
      this.at += 1;
      return "\\{";
    }
    const min = Number(repeat[1]);
    const max = repeat[3] === undefined || repeat[3] === "" ? min : Number(repeat[3]);
    if (min > REPEAT_COUNT_MAX || max > REPEAT_COUNT_MAX || max < min) {
      throw new RegexSyntaxError(`invalid repeat count: \`${repeat[0]}\``);
    }
    this.at += repeat[0].length;
    return repeat[0];
  }
}
