/**
 * Reading a key's text as its type, as Kafka's ConfigDef.parseType does: surrounding
 * whitespace is trimmed, booleans ignore case, lists split on commas.
 */
import type { Parsed } from "./addresses.js";
import type { ConfigDefinition, ConfigValue } from "./config-types.js";

const INTEGER = /^[+-]?[0-9]+$/;
const INT_MAX = 2 ** 31 - 1;
const INT_MIN = -(2 ** 31);
const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

const ok = (value: ConfigValue): Parsed<ConfigValue> => ({ ok: true, value });
const fail = (message: string): Parsed<ConfigValue> => ({ ok: false, message });

/** `text` read as the type of `definition`, then checked by its validator. */
export function parseConfigValue(definition: ConfigDefinition, text: string): Parsed<ConfigValue> {
  const parsed = parseType(definition, text.trim());
  if (!parsed.ok || parsed.value === null || definition.validator === undefined) return parsed;
  const problem = definition.validator.check(parsed.value);
  return problem === undefined ? parsed : fail(`value "${text.trim()}": ${problem}`);
}

function parseType(definition: ConfigDefinition, text: string): Parsed<ConfigValue> {
  switch (definition.type) {
    case "int":
      return parseInt32(text);
    case "long":
      return parseInt64(text);
    case "double":
      return parseDouble(text);
    case "boolean":
      return parseBoolean(text);
    case "list":
      return parseList(text);
    case "string":
    case "password":
    case "class":
      return ok(text);
  }
}

function parseInt32(text: string): Parsed<ConfigValue> {
  if (!INTEGER.test(text)) return fail(`"${text}" is not an integer`);
  const value = Number(text);
  if (value > INT_MAX || value < INT_MIN) return fail(`${text} does not fit in an int`);
  return ok(value);
}

/**
 * A long as a number. Values beyond 2^53 (Kafka's Long.MAX_VALUE meaning "never", typically)
 * are clamped to the largest safe integer, which every use in Sluice reads the same way.
 */
function parseInt64(text: string): Parsed<ConfigValue> {
  if (!INTEGER.test(text)) return fail(`"${text}" is not an integer`);
  const big = BigInt(text);
  if (big > LONG_MAX || big < LONG_MIN) return fail(`${text} does not fit in a long`);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) return ok(Number.MAX_SAFE_INTEGER);
  if (big < BigInt(Number.MIN_SAFE_INTEGER)) return ok(Number.MIN_SAFE_INTEGER);
  return ok(Number(big));
}

function parseDouble(text: string): Parsed<ConfigValue> {
  const value = text === "" ? Number.NaN : Number(text);
  return Number.isFinite(value) ? ok(value) : fail(`"${text}" is not a number`);
}

function parseBoolean(text: string): Parsed<ConfigValue> {
  const lower = text.toLowerCase();
  if (lower === "true") return ok(true);
  if (lower === "false") return ok(false);
  return fail(`"${text}" is not true or false`);
}

function parseList(text: string): Parsed<ConfigValue> {
  if (text === "") return ok([]);
  const entries = text.split(",").map((entry) => entry.trim());
  if (entries.includes("")) return fail(`"${text}" has an empty entry`);
  return ok(entries);
}

/** A value as the text that would set it (lists joined by commas, null as empty). */
export function formatConfigValue(value: ConfigValue): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join(",");
  return String(value);
}
