/**
 * The shape of Sluice's configuration definitions, modelled on Kafka's ConfigDef: each key has a
 * type, a default, a validator, an importance and a one-line description.
 */

/** How a key's text is read. `password` and `class` read as strings; passwords print hidden. */
export type ConfigType =
  "int" | "long" | "double" | "boolean" | "string" | "list" | "password" | "class";

/** How much a key matters to an operator, as Kafka's documentation ranks keys. */
export type Importance = "high" | "medium" | "low";

/** A key's value after parsing; null stands for Kafka's "no value" (a null default). */
export type ConfigValue = number | boolean | string | readonly string[] | null;

/** A check of one parsed value: undefined when it is fine, else why not (a sentence part). */
export interface Validator {
  /** What the validator accepts, for the documentation, e.g. "[1,...]". */
  readonly accepted: string;
  check(value: Exclude<ConfigValue, null>): string | undefined;
}

export interface ConfigDefinition {
  /** Kafka's key name, exactly. */
  readonly name: string;
  readonly type: ConfigType;
  readonly defaultValue: ConfigValue;
  readonly validator?: Validator;
  readonly importance: Importance;
  /** One line in our own words. */
  readonly description: string;
  /** True for keys Kafka does not have. */
  readonly isSluiceSpecific?: boolean;
}

/** Where a value came from, for messages that name it. */
export type ConfigSource =
  | { readonly kind: "default" }
  | { readonly kind: "preset"; readonly name: string }
  | { readonly kind: "file"; readonly path: string; readonly line: number }
  | { readonly kind: "environment"; readonly variable: string }
  | { readonly kind: "flag"; readonly flag: string };

/** A problem with the configuration, naming the key and where its value came from. */
export interface ConfigProblem {
  readonly key: string;
  readonly source: ConfigSource;
  readonly message: string;
}

/** A source in words: "server.properties:12", "environment variable SLUICE_LOG_DIRS", ... */
export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case "default":
      return "the default";
    case "preset":
      return `the ${source.name} preset`;
    case "file":
      return `${source.path}:${source.line}`;
    case "environment":
      return `environment variable ${source.variable}`;
    case "flag":
      return `flag --set ${source.flag}`;
  }
}

/** A problem as one line: the key, the source, and what is wrong. */
export function formatProblem(problem: ConfigProblem): string {
  return `${problem.key} (from ${describeSource(problem.source)}): ${problem.message}`;
}
