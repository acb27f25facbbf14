/**
 * The clean-shutdown marker Kafka writes at the top of each log dir after closing every log of
 * it, `.kafka_cleanshutdown`. Its presence at start means the logs need no recovery; since
 * KIP-966 it also carries the broker epoch of the run that wrote it. Kafka serialises a map of
 * strings, so both values are JSON strings: `{"broker_epoch":"7","version":"0"}`.
 */

/** The name of the marker file in each log dir. */
export const CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown";

/** The only version of the marker's content. */
const CLEAN_SHUTDOWN_VERSION = 0;

/** The broker epoch Kafka writes when it has none. */
export const NO_BROKER_EPOCH = -1;

/** The marker's text for `brokerEpoch`, key order as Kafka's HashMap gives it. */
export function formatCleanShutdown(brokerEpoch: number): string {
  return JSON.stringify({
    broker_epoch: String(brokerEpoch),
    version: String(CLEAN_SHUTDOWN_VERSION),
  });
}

/**
 * The broker epoch in a marker's text, or undefined when the text cannot be read, which Kafka
 * logs and treats as "no epoch" (the marker still means a clean shutdown). A marker without
 * an epoch, as Kafka before 3.7 wrote it (empty), gives NO_BROKER_EPOCH.
 */
export function parseCleanShutdown(text: string): number | undefined {
  let content: unknown;
  try {
    content = JSON.parse(text);
  } catch {
    // Kafka before 3.7 wrote an empty file; anything unparseable likewise has no epoch.
    return undefined;
  }
  if (typeof content !== "object" || content === null || Array.isArray(content)) return undefined;
  const epoch = (content as Record<string, unknown>)["broker_epoch"];
  if (epoch === undefined) return NO_BROKER_EPOCH;
  const value = typeof epoch === "number" ? epoch : Number(epoch);
  if (typeof epoch === "string" && !/^-?\d+$/.test(epoch)) return undefined;
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * The epoch of the previous run when every configured dir had a marker with the same readable
 * epoch, else undefined, as Kafka decides whether a broker's last shutdown was clean (KIP-966).
 * `epochs` has one element per configured dir: undefined for a dir without a readable epoch.
 */
export function previousBrokerEpoch(epochs: readonly (number | undefined)[]): number | undefined {
  let agreed: number | undefined;
  for (const epoch of epochs) {
    if (epoch === undefined) return undefined;
    if (agreed !== undefined && agreed !== NO_BROKER_EPOCH && epoch !== agreed) return undefined;
    agreed = epoch;
  }
  return agreed;
}
