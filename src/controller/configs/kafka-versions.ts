/**
 * The production versions Kafka 3.9's MetadataVersion.fromVersionString accepts, for Kafka 3.x's
 * `message.format.version`: an inter-broker protocol version ("2.8-IV1", "0.10.0-IV0") or a
 * release ("2.8", "0.10.0"); segments past the release's ("2.8.1", "0.10.0.1") are ignored.
 */

/** Each release with the number of its protocol versions (IV0, IV1, ...); 0 for none. */
const RELEASES: readonly (readonly [release: string, internalVersions: number])[] = [
  ["0.8.0", 0],
  ["0.8.1", 0],
  ["0.8.2", 0],
  ["0.9.0", 0],
  ["0.10.0", 2],
  ["0.10.1", 3],
  ["0.10.2", 1],
  ["0.11.0", 3],
  ["1.0", 1],
  ["1.1", 1],
  ["2.0", 2],
  ["2.1", 3],
  ["2.2", 2],
  ["2.3", 2],
  ["2.4", 2],
  ["2.5", 1],
  ["2.6", 1],
  ["2.7", 3],
  ["2.8", 2],
  ["3.0", 2],
  ["3.1", 1],
  ["3.2", 1],
  ["3.3", 4],
  ["3.4", 1],
  ["3.5", 3],
  ["3.6", 3],
  ["3.7", 5],
  ["3.8", 1],
  ["3.9", 1],
];

const VERSIONS: ReadonlySet<string> = new Set(
  RELEASES.flatMap(([release, internalVersions]) => [
    release,
    ...Array.from({ length: internalVersions }, (_, index) => `${release}-IV${index}`),
  ]),
);

/** Whether Kafka 3.9 reads `text` as a version. */
export function isKafkaVersion(text: string): boolean {
  const segments = text.split(".");
  const kept = text.startsWith("0.") ? 3 : 2;
  const key = segments.length <= kept ? text : segments.slice(0, kept).join(".");
  return VERSIONS.has(key);
}
