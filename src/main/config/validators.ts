/**
 * The validators of configuration values, as Kafka's ConfigDef offers them (Range, ValidString,
 * ValidList) plus the address syntaxes of Kafka's KRaft keys.
 */
import {
  parseEach,
  parseHostPort,
  parseListener,
  parseProtocolMapping,
  parseVoter,
  type Parsed,
} from "./addresses.js";
import type { ConfigValue, Validator } from "./config-types.js";

type Present = Exclude<ConfigValue, null>;

export function atLeast(minimum: number): Validator {
  return between(minimum, undefined);
}

/** Accepts numbers in [minimum, maximum]; an undefined maximum means no upper bound. */
export function between(minimum: number, maximum: number | undefined): Validator {
  return {
    accepted: maximum === undefined ? `[${minimum},...]` : `[${minimum},...,${maximum}]`,
    check: (value) => {
      if (typeof value !== "number") return "is not a number";
      if (value < minimum) return `must be at least ${minimum}`;
      if (maximum !== undefined && value > maximum) return `must be at most ${maximum}`;
      return undefined;
    },
  };
}

/** Accepts any number but 0 (a duration where 0 would mean at once and negative never). */
export function notZero(): Validator {
  return {
    accepted: "not 0",
    check: (value) => {
      if (typeof value !== "number") return "is not a number";
      return value === 0 ? "must not be 0" : undefined;
    },
  };
}

/** Accepts one of `choices` (a string), compared as Kafka's ValidString does: exactly. */
export function oneOf(choices: readonly string[]): Validator {
  return {
    accepted: `[${choices.join(", ")}]`,
    check: (value) =>
      typeof value === "string" && choices.includes(value)
        ? undefined
        : `must be one of ${choices.join(", ")}`,
  };
}

/** Accepts a list whose entries are all among `choices`, each at most once. */
export function listOf(choices: readonly string[]): Validator {
  return {
    accepted: `[${choices.join(", ")}]`,
    check: (value) => {
      if (!Array.isArray(value)) return "is not a list";
      const unknown = value.find((entry: string) => !choices.includes(entry));
      if (unknown !== undefined) return `"${unknown}" is not one of ${choices.join(", ")}`;
      if (new Set(value).size !== value.length) return "lists an entry twice";
      return undefined;
    },
  };
}

/** Accepts a list whose every entry `parse` reads. */
function entriesParsedBy(accepted: string, parse: (text: string) => Parsed<unknown>): Validator {
  return {
    accepted,
    check: (value: Present) => {
      if (!Array.isArray(value)) return "is not a list";
      const parsed = parseEach(value, parse);
      return parsed.ok ? undefined : parsed.message;
    },
  };
}

/** Listener lists: `NAME://host:port,...`. */
export const listenerList: Validator = entriesParsedBy("NAME://host:port,...", parseListener);

/** Static voter lists: `id@host:port,...`. */
export const voterList: Validator = entriesParsedBy("id@host:port,...", parseVoter);

/** Bootstrap server lists: `host:port,...`. */
export const hostPortList: Validator = entriesParsedBy("host:port,...", (text) =>
  parseHostPort(text),
);

/** Listener-to-protocol maps: `NAME:PROTOCOL,...`. */
export const protocolMap: Validator = entriesParsedBy("NAME:PROTOCOL,...", parseProtocolMapping);

/** Accepts a text that `parse` reads. */
export function textParsedBy(
  accepted: string,
  parse: (text: string) => Parsed<unknown>,
): Validator {
  return {
    accepted,
    check: (value) => {
      if (typeof value !== "string") return "is not text";
      const parsed = parse(value);
      return parsed.ok ? undefined : parsed.message;
    },
  };
}

/** One `host:port`. */
export const hostPort: Validator = textParsedBy("host:port", (text) => parseHostPort(text));

export const nonEmptyString: Validator = {
  accepted: "non-empty string",
  check: (value) => (typeof value === "string" && value.trim() !== "" ? undefined : "is empty"),
};
