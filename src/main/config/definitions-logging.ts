/**
 * Configuration keys of the node's own log: the least severe level written, per component
 * overrides (the `component` field every part of the node logs with), and the line format.
 */
import type { ConfigDefinition } from "./config-types.js";
import { oneOf } from "./validators.js";
import type { Validator } from "./config-types.js";

/** The levels of the node's log, least severe first. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;

/** `component=level` entries, each component once. */
const componentLevels: Validator = {
  accepted: "component=level,...",
  check: (value) => {
    if (!Array.isArray(value)) return "is not a list";
    const seen = new Set<string>();
    for (const entry of value as string[]) {
      const [component, level, ...rest] = entry.split("=");
      if (component === undefined || component === "" || rest.length > 0) {
        return `"${entry}" is not component=level`;
      }
      if (!(LOG_LEVELS as readonly string[]).includes(level ?? "")) {
        return `"${entry}": the level must be one of ${LOG_LEVELS.join(", ")}`;
      }
      if (seen.has(component)) return `names ${component} twice`;
      seen.add(component);
    }
    return undefined;
  },
};

export const loggingDefinitions: readonly ConfigDefinition[] = [
  {
    name: "sluice.log.level",
    type: "string",
    defaultValue: "info",
    validator: oneOf(LOG_LEVELS),
    importance: "medium",
    isSluiceSpecific: true,
    description: "Sluice only: the least severe level of the node's own log lines.",
  },
  {
    name: "sluice.log.levels",
    type: "list",
    defaultValue: [],
    validator: componentLevels,
    importance: "low",
    isSluiceSpecific: true,
    description:
      "Sluice only: levels per component, as component=level (e.g. replica-fetcher=debug); the " +
      "component is the `component` field of a line. Others use sluice.log.level.",
  },
  {
    name: "sluice.log.format",
    type: "string",
    defaultValue: "logfmt",
    validator: oneOf(["logfmt", "json"]),
    importance: "low",
    isSluiceSpecific: true,
    description: "Sluice only: the format of the node's log lines on stderr, logfmt or json.",
  },
];
