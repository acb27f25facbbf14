/**
 * The Java properties text format, as far as Kafka's own files use it: `#` and `!` comments,
 * `key=value`, `key: value` and `key value` lines, surrounding whitespace trimmed, backslash
 * escapes and line continuations. Pure text conversion.
 */

/** Ordered key/value pairs of a properties file. */
export type Properties = ReadonlyMap<string, string>;

/** The logical lines of `text`: comments and blank lines dropped, continuations joined. */
function logicalLines(text: string): string[] {
  const result: string[] = [];
  let pending: string | undefined;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = pending === undefined ? rawLine.replace(/^[ \t\f]+/, "") : rawLine.trimStart();
    if (pending === undefined && (line === "" || line.startsWith("#") || line.startsWith("!"))) {
      continue;
    }
    const joined = (pending ?? "") + line;
    if (endsWithOddBackslashes(joined)) {
      pending = joined.slice(0, -1);
    } else {
      result.push(joined);
      pending = undefined;
    }
  }
  if (pending !== undefined) result.push(pending);
  return result;
}

function endsWithOddBackslashes(line: string): boolean {
  let count = 0;
  for (let index = line.length - 1; index >= 0 && line[index] === "\\"; index--) count++;
  return count % 2 === 1;
}

/** The index where the key of `line` ends: the first unescaped `=`, `:` or whitespace. */
function keyEnd(line: string): number {
  for (let index = 0; index < line.length; index++) {
    const character = line[index];
    if (character === "\\") index++;
    else if (character === "=" || character === ":" || /[ \t\f]/.test(character as string)) {
      return index;
    }
  }
  return line.length;
}

const ESCAPES: Readonly<Record<string, string>> = { t: "\t", n: "\n", r: "\r", f: "\f" };

/** `text` with Java's backslash escapes resolved; an unknown escape stands for its character. */
function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_whole, escaped: string) => {
    if (escaped.length === 5) return String.fromCharCode(Number.parseInt(escaped.slice(1), 16));
    return ESCAPES[escaped] ?? escaped;
  });
}

/** Parses properties text. A key given twice keeps its last value, as Java's loader does. */
export function parseProperties(text: string): Map<string, string> {
  const properties = new Map<string, string>();
  for (const line of logicalLines(text)) {
    const end = keyEnd(line);
    let rest = line.slice(end).replace(/^[ \t\f]+/, "");
    if (rest.startsWith("=") || rest.startsWith(":")) rest = rest.slice(1).replace(/^[ \t\f]+/, "");
    properties.set(unescape(line.slice(0, end)), unescape(rest.trimEnd()));
  }
  return properties;
}

/** `text` escaped for a properties file; keys also escape spaces, values only leading ones. */
function escape(text: string, isKey: boolean): string {
  let result = "";
  for (const [index, character] of [...text].entries()) {
    if (character === " " && (isKey || index === 0)) result += "\\ ";
    else if ("\\=:#!".includes(character)) result += `\\${character}`;
    else if (character === "\t") result += "\\t";
    else if (character === "\n") result += "\\n";
    else if (character === "\r") result += "\\r";
    else if (character === "\f") result += "\\f";
    else result += character;
  }
  return result;
}

/**
 * Properties text as Java's Properties.store writes it: a comment line per entry of
 * `comments`, then `key=value` lines in the given order, each ended by "\n".
 */
export function formatProperties(properties: Properties, comments: readonly string[]): string {
  let text = "";
  for (const comment of comments) text += `#${comment}\n`;
  for (const [key, value] of properties) text += `${escape(key, true)}=${escape(value, false)}\n`;
  return text;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `epochMs` as Java's Date.toString prints it in UTC, e.g. "Thu Jan 18 12:03:29 UTC 2024". */
export function formatJavaDate(epochMs: number): string {
  const date = new Date(epochMs);
  const two = (value: number): string => String(value).padStart(2, "0");
  const hours = two(date.getUTCHours());
  const time = `${hours}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
  const day = `${DAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${two(date.getUTCDate())}`;
  return `${day} ${time} UTC ${date.getUTCFullYear()}`;
}
