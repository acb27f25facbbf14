/**
 * The `sasl.jaas.config` syntax Kafka reads (its JaasConfig): one or more login modules, each
 * `ClassName flag key="value" ... ;`, where the flag is required, requisite, sufficient or
 * optional and a value is a double-quoted string (backslash escapes the next character) or a
 * bare word. What the options mean is up to the mechanism.
 */

export interface JaasLoginModule {
  readonly className: string;
  readonly flag: "required" | "requisite" | "sufficient" | "optional";
  readonly options: ReadonlyMap<string, string>;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const FLAGS = ["required", "requisite", "sufficient", "optional"] as const;

/** The login modules of `text`, or why it does not parse. */
export function parseJaasConfig(text: string): Parsed<JaasLoginModule[]> {
  const tokens = tokenize(text);
  if (!tokens.ok) return tokens;
  const modules: JaasLoginModule[] = [];
  const list = tokens.value;
  let index = 0;
  while (index < list.length) {
    const className = list[index++];
    const flag = FLAGS.find((candidate) => candidate === list[index]?.toLowerCase());
    if (className === undefined || className === ";" || className === "=") {
      return { ok: false, message: "a login module must start with its class name" };
    }
    if (flag === undefined) {
      return { ok: false, message: `${className} needs a flag (${FLAGS.join(", ")})` };
    }
    index++;
    const options = new Map<string, string>();
    while (list[index] !== ";") {
      const [key, equals, value] = [list[index], list[index + 1], list[index + 2]];
      if (key === undefined) return { ok: false, message: `${className} must end with ";"` };
      if (equals !== "=" || value === undefined || value === ";" || value === "=") {
        return { ok: false, message: `option ${key} of ${className} is not key=value` };
      }
      options.set(key, value);
      index += 3;
    }
    index++;
    modules.push({ className, flag, options });
  }
  if (modules.length === 0) return { ok: false, message: "names no login module" };
  return { ok: true, value: modules };
}

/** Words, quoted strings (unquoted), "=" and ";". */
function tokenize(text: string): Parsed<string[]> {
  const tokens: string[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index] as string;
    if (/\s/.test(character)) index++;
    else if (character === "=" || character === ";") {
      tokens.push(character);
      index++;
    } else if (character === '"') {
      let value = "";
      index++;
      while (index < text.length && text[index] !== '"') {
        if (text[index] === "\\" && index + 1 < text.length) index++;
        value += text[index++];
      }
      if (index >= text.length) return { ok: false, message: "a quoted value is not closed" };
      index++;
      tokens.push(value);
    } else {
      const start = index;
      while (index < text.length && !/[\s=;"]/.test(text[index] as string)) index++;
      tokens.push(text.slice(start, index));
    }
  }
  return { ok: true, value: tokens };
}

/** The class names of the login modules of Kafka's SASL mechanisms. */
export const PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule";
export const SCRAM_LOGIN_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule";

/**
 * What a broker takes from a mechanism's JAAS entry: the users PlainLoginModule serves
 * (`user_<name>="<password>"`), and the `username`/`password` the broker itself logs in with on
 * the inter-broker and controller connections.
 */
export interface JaasCredentials {
  readonly users: ReadonlyMap<string, string>;
  readonly username: string | undefined;
  readonly password: string | undefined;
}

export function credentialsOf(module: JaasLoginModule): JaasCredentials {
  const users = new Map<string, string>();
  for (const [key, value] of module.options) {
    if (key.startsWith("user_")) users.set(key.slice("user_".length), value);
  }
  return {
    users,
    username: module.options.get("username"),
    password: module.options.get("password"),
  };
}
