/**
 * The address syntaxes of Kafka's configuration: listeners (`NAME://host:port`, with an empty
 * host for every interface and brackets around IPv6), voters (`id@host:port`), bootstrap
 * servers and plain `host:port`, and the listener-to-protocol map (`NAME:PROTOCOL`). Each parser
 * returns a value or a message saying what is wrong.
 */

export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** A host and port; an empty host means every interface. */
export interface HostPort {
  readonly host: string;
  readonly port: number;
}

/** One listener: its name (upper-cased, as Kafka normalises names), host and port. */
export interface ListenerAddress extends HostPort {
  readonly name: string;
}

/** One voter of a static controller quorum. */
export interface VoterAddress extends HostPort {
  readonly nodeId: number;
}

export const SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;

export type SecurityProtocol = (typeof SECURITY_PROTOCOLS)[number];

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

const HOST_PORT = /^(?:\[([0-9a-fA-F:.%]+)\]|([0-9a-zA-Z\-%._]*)):([0-9]+)$/;
const LISTENER = /^([A-Za-z0-9_-]+):\/\/(.*)$/;
const VOTER = /^([0-9]+)@(.*)$/;

/** Reads `host:port` or `[ipv6]:port`; the host may be empty only when `allowEmptyHost`. */
export function parseHostPort(text: string, allowEmptyHost = false): Parsed<HostPort> {
  const match = HOST_PORT.exec(text.trim());
  if (match === null) return fail(`"${text}" is not host:port`);
  const host = match[1] ?? match[2] ?? "";
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port > 65535) return fail(`port ${match[3]} is not 0-65535`);
  if (host === "" && !allowEmptyHost) return fail(`"${text}" has no host`);
  return ok({ host, port });
}

/** Reads one listener, `NAME://host:port`; an empty host binds every interface. */
export function parseListener(text: string): Parsed<ListenerAddress> {
  const match = LISTENER.exec(text.trim());
  if (match === null) return fail(`"${text}" is not NAME://host:port`);
  const address = parseHostPort(match[2] ?? "", true);
  if (!address.ok) return fail(`listener "${text}": ${address.message}`);
  return ok({ name: (match[1] ?? "").toUpperCase(), ...address.value });
}

/** Reads one voter, `id@host:port`. */
export function parseVoter(text: string): Parsed<VoterAddress> {
  const match = VOTER.exec(text.trim());
  if (match === null) return fail(`"${text}" is not id@host:port`);
  const nodeId = Number(match[1]);
  if (!Number.isSafeInteger(nodeId) || nodeId > 0x7fffffff) {
    return fail(`voter id ${match[1]} is not a node id`);
  }
  const address = parseHostPort(match[2] ?? "");
  if (!address.ok) return fail(`voter "${text}": ${address.message}`);
  return ok({ nodeId, ...address.value });
}

/** Reads one `NAME:PROTOCOL` entry of `listener.security.protocol.map`. */
export function parseProtocolMapping(text: string): Parsed<[string, SecurityProtocol]> {
  const parts = text.trim().split(":");
  const [name, protocol] = parts;
  if (parts.length !== 2 || name === undefined || name === "" || protocol === undefined) {
    return fail(`"${text}" is not NAME:PROTOCOL`);
  }
  const upper = protocol.trim().toUpperCase();
  const known = SECURITY_PROTOCOLS.find((candidate) => candidate === upper);
  if (known === undefined)
    return fail(`"${protocol}" is not one of ${SECURITY_PROTOCOLS.join(", ")}`);
  return ok([name.trim().toUpperCase(), known]);
}

/** Applies `parse` to every entry; the first failure wins. */
export function parseEach<T>(
  entries: readonly string[],
  parse: (text: string) => Parsed<T>,
): Parsed<T[]> {
  const values: T[] = [];
  for (const entry of entries) {
    const parsed = parse(entry);
    if (!parsed.ok) return parsed;
    values.push(parsed.value);
  }
  return ok(values);
}

/** `host:port` as text, with brackets around an IPv6 host. */
export function formatHostPort(address: HostPort): string {
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return `${host}:${address.port}`;
}
