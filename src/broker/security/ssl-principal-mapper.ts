/**
 * `ssl.principal.mapping.rules` (KIP-371), as Kafka's SslPrincipalMapper reads them: a comma-
 * or newline-separated list of `DEFAULT` and `RULE:pattern/replacement/[LU]` entries. The first
 * rule whose pattern matches the whole distinguished name gives the principal's name (its
 * replacement, upper- or lower-cased by the U or L flag); DEFAULT gives the name unchanged.
 * When no rule matches, the connection has no principal and Kafka refuses it.
 */

type Rule =
  | { readonly kind: "default" }
  | {
      readonly kind: "rule";
      readonly pattern: RegExp;
      readonly replacement: string;
      readonly case: "" | "L" | "U";
    };

export type MappingRules = readonly Rule[];

// One entry: DEFAULT, or RULE: then pattern and replacement (each a run of escaped characters or
// anything but a backslash or a slash), then an optional flag, then a separator.
const PART = String.raw`((?:\\.|[^\\/])*)`;
const ENTRY = new RegExp(
  String.raw`\s*(?:(DEFAULT)|RULE:${PART}\/${PART}\/([LU]?)[^,\n]*?|([^,\n]*?))\s*(?:[,\n]\s*|$)`,
  "y",
);

/** The rules of `text`, or why they do not parse. */
export function parseMappingRules(
  text: string,
): { ok: true; value: MappingRules } | { ok: false; message: string } {
  const rules: Rule[] = [];
  if (text.trim() === "") return { ok: true, value: [{ kind: "default" }] };
  ENTRY.lastIndex = 0;
  while (ENTRY.lastIndex < text.length) {
    const start = ENTRY.lastIndex;
    const match = ENTRY.exec(text);
    if (match === null || ENTRY.lastIndex === start) {
      return { ok: false, message: `cannot read the rules from "${text.slice(start)}"` };
    }
    if (match[1] !== undefined) rules.push({ kind: "default" });
    else if (match[2] !== undefined) {
      const rule = ruleOf(match[2], match[3] ?? "", (match[4] ?? "") as "" | "L" | "U");
      if (typeof rule === "string") return { ok: false, message: rule };
      rules.push(rule);
    } else if ((match[5] ?? "").trim() !== "") {
      return {
        ok: false,
        message: `"${match[5]}" is neither DEFAULT nor RULE:pattern/replacement/`,
      };
    }
  }
  return { ok: true, value: rules };
}

function ruleOf(pattern: string, replacement: string, flag: "" | "L" | "U"): Rule | string {
  try {
    return { kind: "rule", pattern: new RegExp(`^(?:${pattern})$`), replacement, case: flag };
  } catch (error) {
    return `pattern "${pattern}" is not a regular expression: ${(error as Error).message}`;
  }
}

/** The principal name the rules give `distinguishedName`, or undefined when none matches. */
export function applyMappingRules(
  rules: MappingRules,
  distinguishedName: string,
): string | undefined {
  for (const rule of rules) {
    if (rule.kind === "default") return distinguishedName;
    const match = rule.pattern.exec(distinguishedName);
    if (match === null) continue;
    const name = javaReplacement(rule.replacement, match);
    return rule.case === "L" ? name.toLowerCase() : rule.case === "U" ? name.toUpperCase() : name;
  }
  return undefined;
}

/**
 * A replacement as Java's Matcher.replaceAll reads it: `$n` is group n, a backslash takes the
 * next character literally. The pattern matched the whole name, so there is one replacement.
 */
function javaReplacement(replacement: string, match: RegExpExecArray): string {
  let result = "";
  for (let index = 0; index < replacement.length; index++) {
    const character = replacement[index] as string;
    if (character === "\\" && index + 1 < replacement.length) {
      result += replacement[++index];
    } else if (character === "$" && /[0-9]/.test(replacement[index + 1] ?? "")) {
      let digits = "";
      while (/[0-9]/.test(replacement[index + 1] ?? "")) digits += replacement[++index];
      result += match[Number(digits)] ?? "";
    } else result += character;
  }
  return result;
}
