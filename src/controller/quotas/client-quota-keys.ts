/**
 * The client quota keys and entity types of Kafka's QuotaConfig: user and client-id entities
 * take the byte rates, the request percentage and the controller mutation rate; ip entities
 * take the connection creation rate. Each key has Kafka's type, which bounds its values.
 */

/** Kafka's ClientQuotaEntity types. */
export const QuotaEntityType = {
  USER: "user",
  CLIENT_ID: "client-id",
  IP: "ip",
} as const;

export const QuotaKey = {
  PRODUCER_BYTE_RATE: "producer_byte_rate",
  CONSUMER_BYTE_RATE: "consumer_byte_rate",
  REQUEST_PERCENTAGE: "request_percentage",
  CONTROLLER_MUTATION_RATE: "controller_mutation_rate",
  CONNECTION_CREATION_RATE: "connection_creation_rate",
} as const;

/** The ConfigDef type of a quota key. */
export type QuotaKeyType = "long" | "double" | "int";

/** Keys of user and client-id entities (QuotaConfig.userAndClientQuotaConfigs). */
export const USER_AND_CLIENT_QUOTA_KEYS: ReadonlyMap<string, QuotaKeyType> = new Map([
  [QuotaKey.PRODUCER_BYTE_RATE, "long"],
  [QuotaKey.CONSUMER_BYTE_RATE, "long"],
  [QuotaKey.REQUEST_PERCENTAGE, "double"],
  [QuotaKey.CONTROLLER_MUTATION_RATE, "double"],
]);

/** Keys of ip entities (QuotaConfig.ipConfigs). */
export const IP_QUOTA_KEYS: ReadonlyMap<string, QuotaKeyType> = new Map([
  [QuotaKey.CONNECTION_CREATION_RATE, "int"],
]);

/**
 * The keys the brokers enforce. Kafka knows the others too, and AlterClientQuotas refuses to
 * set them rather than store a quota that would bind nobody.
 */
export const ENFORCED_QUOTA_KEYS: ReadonlySet<string> = new Set([
  QuotaKey.PRODUCER_BYTE_RATE,
  QuotaKey.CONSUMER_BYTE_RATE,
  QuotaKey.REQUEST_PERCENTAGE,
]);

const LONG_MAX = 2 ** 63 - 1;
const INT_MAX = 2 ** 31 - 1;

/**
 * Why `value` is refused for `key` of `type`, as Kafka's validateQuotaKeyValue says it, or
 * undefined. Kafka lets NaN through its comparisons; a quota that is not a number is refused
 * here as not greater than 0.
 */
export function invalidQuotaValueReason(
  key: string,
  type: QuotaKeyType,
  value: number,
): string | undefined {
  if (!(value > 0)) return `Quota ${key} must be greater than 0`;
  if (type === "double") return undefined;
  if (type === "int" && value > INT_MAX) {
    return `Proposed value for ${key} is too large for an INT.`;
  }
  if (type === "long" && value > LONG_MAX) {
    return `Proposed value for ${key} is too large for a LONG.`;
  }
  if (Math.abs(value % 1) > 1e-6) return `${key} cannot be a fractional value.`;
  return undefined;
}

/**
 * Whether `name` is an IP address literal (v4 dotted quad or v6). Kafka also accepts a host
 * name it can resolve; a controller does no name lookups, so it takes literals only.
 */
export function isIpLiteral(name: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (v4 !== null) return v4.slice(1).every((octet) => Number(octet) <= 255);
  if (!/^[0-9a-fA-F:.]+$/.test(name) || !name.includes(":")) return false;
  const halves = name.split("::");
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === "" ? [] : half.split(":")));
  const last = groups.at(-1) ?? "";
  const hasV4Tail = last.includes(".");
  if (hasV4Tail && !isIpLiteral(last)) return false;
  const hexGroups = hasV4Tail ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const width = hexGroups.length + (hasV4Tail ? 2 : 0);
  return halves.length === 2 ? width < 8 : width === 8;
}
