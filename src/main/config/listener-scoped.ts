/**
 * Kafka's per-listener keys: `listener.name.<listener>.<key>` for the TLS and SASL keys of
 * LISTENER_SCOPED_KEYS, and `listener.name.<listener>.<mechanism>.sasl.jaas.config` or
 * `.connections.max.reauth.ms` for one SASL mechanism of one listener.
 */
import type { ConfigDefinition } from "./config-types.js";
import { configDefinition } from "./definitions.js";
import { LISTENER_SCOPED_KEYS } from "./definitions-security.js";

const SCOPED = /^listener\.name\.([a-z0-9_-]+)\.(.+)$/;
const MECHANISM_SCOPED = /^([a-z0-9-]+)\.(sasl\.jaas\.config|connections\.max\.reauth\.ms)$/;

const JAAS_CONFIG: ConfigDefinition = {
  name: "sasl.jaas.config",
  type: "password",
  defaultValue: null,
  importance: "high",
  description: "A SASL mechanism's JAAS login module entry.",
};

/** How `key` is read when it is a listener-scoped key, or undefined when it is not one. */
export function listenerScopedDefinition(key: string): ConfigDefinition | undefined {
  const match = SCOPED.exec(key);
  if (match === null) return undefined;
  const rest = match[2] as string;
  if (LISTENER_SCOPED_KEYS.has(rest)) return configDefinition(rest);
  const mechanism = MECHANISM_SCOPED.exec(rest);
  if (mechanism === null) return undefined;
  return mechanism[2] === "sasl.jaas.config"
    ? JAAS_CONFIG
    : configDefinition("connections.max.reauth.ms");
}
