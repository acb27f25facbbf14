/**
 * Checks a config value against its definition, giving the reason in words when it is invalid.
 * Integers are checked as Kafka's types are (int is 32-bit, long 64-bit), with bigint arithmetic
 * for longs since their defaults (Long.MAX_VALUE) lie beyond JavaScript's safe integers.
 */
import { shownText } from "../../common/index.js";
import { listItems } from "./config-definition.js";
import { isKafkaVersion } from "./kafka-versions.js";
import type { ConfigDefinition, ConfigRule } from "./config-definition.js";

const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
/** The most of a refused value that its message repeats. */
const VALUE_SHOWN_MAX = 1000;

/** Why `value` is not valid for `definition`, naming the key, or undefined when it is valid. */
export function invalidValueReason(
  definition: ConfigDefinition,
  value: string,
): string | undefined {
  const reason = typeReason(definition, value.trim()) ?? ruleReason(definition.rule, value.trim());
  return reason === undefined
    ? undefined
    : `invalid value "${shownText(value, VALUE_SHOWN_MAX)}" for ${definition.name}: ${reason}`;
}

function typeReason(definition: ConfigDefinition, value: string): string | undefined {
  switch (definition.type) {
    case "boolean":
      return /^(true|false)$/i.test(value) ? undefined : "expected true or false";
    case "int":
      return integerReason(value, INT_MIN, INT_MAX, "a 32-bit integer");
    case "long":
      return integerReason(value, LONG_MIN, LONG_MAX, "a 64-bit integer");
    case "double":
      return value !== "" && Number.isFinite(Number(value)) ? undefined : "expected a number";
    case "string":
    case "list":
      return undefined;
  }
}

function integerReason(value: string, min: bigint, max: bigint, what: string): string | undefined {
  if (!/^[-+]?\d+$/.test(value)) return `expected ${what}`;
  const parsed = BigInt(value);
  return parsed < min || parsed > max ? `expected ${what}` : undefined;
}

/** Compares a number's text with a bound, exactly, whatever the size of the number. */
function compare(value: string, bound: number): number {
  if (/^[-+]?\d+$/.test(value) && Number.isInteger(bound)) {
    const difference = BigInt(value) - BigInt(bound);
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }
  return Math.sign(Number(value) - bound);
}

function ruleReason(rule: ConfigRule, value: string): string | undefined {
  switch (rule.kind) {
    case "none":
      return undefined;
    case "atLeast":
      return compare(value, rule.min) < 0 ? `must be at least ${rule.min}` : undefined;
    case "between":
      return compare(value, rule.min) < 0 || compare(value, rule.max) > 0
        ? `must be between ${rule.min} and ${rule.max}`
        : undefined;
    case "oneOf":
      return rule.values.includes(value) ? undefined : `must be one of ${rule.values.join(", ")}`;
    case "listOf": {
      const items = listItems(value);
      if (items.length === 0) return `must list at least one of ${rule.values.join(", ")}`;
      const unknown = items.find((item) => !rule.values.includes(item));
      return unknown === undefined
        ? undefined
        : `"${shownText(unknown, VALUE_SHOWN_MAX)}" is not one of ${rule.values.join(", ")}`;
    }
    case "throttledReplicas":
      return throttledReplicasReason(value);
    case "kafkaVersion":
      return isKafkaVersion(value) ? undefined : "is not a Kafka version";
    case "compressionLevel":
      return compare(value, rule.other) === 0 ||
        (compare(value, rule.min) >= 0 && compare(value, rule.max) <= 0)
        ? undefined
        : `must be ${rule.other} or between ${rule.min} and ${rule.max}`;
  }
}

/** Throttled replica lists are "*" or "partition:broker" pairs, as Kafka's validator requires. */
function throttledReplicasReason(value: string): string | undefined {
  const items = listItems(value);
  if (items.length === 1 && items[0] === "*") return undefined;
  const bad = items.find((item) => !/^\d+:\d+$/.test(item));
  return bad === undefined
    ? undefined
    : `"${shownText(bad, VALUE_SHOWN_MAX)}" is not "*" or partition:broker`;
}
