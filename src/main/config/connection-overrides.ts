/**
 * `max.connections.per.ip.overrides`: Kafka's `host:count,...` map of per-host connection
 * limits. Kafka resolves a host name once at startup; Sluice matches the peer's address, so each
 * entry names an IP address (a name is refused rather than silently never matching).
 */
import type { Parsed } from "./addresses.js";
import type { Validator } from "./config-types.js";
import { textParsedBy } from "./validators.js";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9a-f:.]+$/;

/** The overrides by lower-case address; an entry's count is 0 or more. */
export function parseConnectionOverrides(text: string): Parsed<ReadonlyMap<string, number>> {
  const overrides = new Map<string, number>();
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    // The count follows the last colon, so that an IPv6 address may hold colons of its own.
    const colon = entry.lastIndexOf(":");
    const host = entry.slice(0, colon).trim().toLowerCase();
    const countText = entry.slice(colon + 1).trim();
    if (colon <= 0 || !/^\d+$/.test(countText) || Number(countText) > 2_147_483_647) {
      return { ok: false, message: `"${entry}" is not host:count` };
    }
    if (!isIpAddress(host)) {
      return { ok: false, message: `"${host}" is not an IP address (names are not resolved)` };
    }
    if (overrides.has(host)) return { ok: false, message: `names ${host} twice` };
    overrides.set(host, Number(countText));
  }
  return { ok: true, value: overrides };
}

function isIpAddress(host: string): boolean {
  if (IPV4.test(host)) return true;
  return host.includes(":") && IPV6.test(host) && host.split("::").length <= 2;
}

/** Accepts what {@link parseConnectionOverrides} reads. */
export const connectionOverrides: Validator = textParsedBy(
  "ip:count,...",
  parseConnectionOverrides,
);
