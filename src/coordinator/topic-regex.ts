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
 *   insensitive, and `i` anywhere else is refused as not supported.
 *
 * A refusal is INVALID_REGULAR_EXPRESSION for the heartbeat that brought the pattern.
 */

export type CompiledTopicRegex =
  | { readonly kind: "valid"; readonly matches: (topicName: string) => boolean }
  | { readonly kind: "invalid"; readonly description: string };

/** RE2's bound on `{n,m}` repetition counts. */
const REPEAT_COUNT_MAX = 1000;

const POSIX_CLASSES: Readonly<Record<string, string>> = {
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
const GENERAL_CATEGORIES = new Set(
  (
    "C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps " +
    "S Sc Sk Sm So Z Zl Zp Zs"
  ).split(" "),
);

class RegexSyntaxError extends Error {}

export function compileTopicRegex(pattern: string): CompiledTopicRegex {
  let source: string;
  let flags = "u";
  try {
    const translated = new Translator(pattern).translate();
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

/** One pass over an RE2 pattern, writing the JavaScript equivalent. */
class Translator {
  private at = 0;
  private out = "";
  private isCaseInsensitive = false;

  constructor(private readonly pattern: string) {}

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
        this.out += char;
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
    if (next === "p" || next === "P") return this.unicodeClass(next);
    if (next === "x") return this.hexEscape();
    if (next >= "0" && next <= "7") return this.octalEscape(next);
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
    return [...text].map(literal).join("");
  }

  private unicodeClass(letter: "p" | "P"): string {
    let name: string;
    if (this.pattern[this.at] === "{") {
      const end = this.pattern.indexOf("}", this.at);
      if (end === -1) throw new RegexSyntaxError("invalid character class range: missing }");
      name = this.pattern.slice(this.at + 1, end);
      this.at = end + 1;
    } else {
      name = this.pattern[this.at] ?? "";
      this.at += 1;
    }
    const isNegated = name.startsWith("^");
    if (isNegated) name = name.slice(1);
    if (!/^[A-Za-z_]+$/.test(name)) {
      throw new RegexSyntaxError(`invalid character class range: \`\\${letter}{${name}}\``);
    }
    const property = GENERAL_CATEGORIES.has(name) ? name : `Script=${name}`;
    const negated = (letter === "P") !== isNegated;
    return `\\${negated ? "P" : "p"}{${property}}`;
  }

  private hexEscape(): string {
    if (this.pattern[this.at] === "{") {
      const end = this.pattern.indexOf("}", this.at);
      const digits = end === -1 ? "" : this.pattern.slice(this.at + 1, end);
      if (!/^[0-9A-Fa-f]{1,8}$/.test(digits) || Number.parseInt(digits, 16) > 0x10ffff) {
        throw new RegexSyntaxError("invalid escape sequence: `\\x{`");
      }
      this.at = end + 1;
      return `\\u{${digits}}`;
    }
    const digits = this.pattern.slice(this.at, this.at + 2);
    if (!/^[0-9A-Fa-f]{2}$/.test(digits))
      throw new RegexSyntaxError("invalid escape sequence: `\\x`");
    this.at += 2;
    return `\\x${digits}`;
  }

  /** `\0`, `\012`, `\12`: octal; a lone `\1`..`\7` would be a backreference, which RE2 lacks. */
  private octalEscape(first: string): string {
    let digits = first;
    while (digits.length < 3 && /[0-7]/.test(this.pattern[this.at] ?? "")) {
      digits += this.pattern[this.at];
      this.at += 1;
    }
    if (first !== "0" && digits.length === 1) {
      throw new RegexSyntaxError(`invalid escape sequence: \`\\${first}\``);
    }
    return `\\u{${Number.parseInt(digits, 8).toString(16)}}`;
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
      isFirst = false;
      if (char === "\\") {
        out += this.escape(true);
      } else if (char === "[" && this.pattern[this.at + 1] === ":") {
        out += this.posixClass();
      } else {
        out += "[]{}()|/".includes(char) ? literal(char) : char;
        this.at += 1;
      }
    }
    this.at += 1;
    return `${out}]`;
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
    return ranges;
  }

  /** `(` and the Perl group forms RE2 knows: `(?:`, `(?P<name>`, `(?<name>`, flags. */
  private group(): string {
    if (this.pattern[this.at + 1] !== "?") {
      this.at += 1;
      return "(";
    }
    const rest = this.pattern.slice(this.at + 2);
    const named = /^P?<([A-Za-z0-9_]+)>/.exec(rest);
    if (named !== null) {
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
    if (enabled.includes("i") && isLeadingCaseFlag) this.isCaseInsensitive = true;
    else if (enabled.includes("i") || disabled.includes("i")) {
      throw new RegexSyntaxError("the flag i is supported only as a leading (?i)");
    }
    this.at += 2 + whole.length;
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

/** One character as a JavaScript pattern literal (ASCII punctuation as a hex escape). */
function literal(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code >= 0x80 || /[A-Za-z0-9_]/.test(char)) return char;
  return `\\x${code.toString(16).padStart(2, "0")}`;
}
