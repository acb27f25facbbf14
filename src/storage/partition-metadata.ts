/**
 * partition.metadata, the file in each partition folder that records the topic id the folder
 * belongs to (KIP-516): `version: 0` and `topic_id: <Uuid in Kafka's base64 form>`. Pure; the
 * driver does the I/O.
 */
import { uuidFromBase64, uuidToBase64, type Uuid } from "../common/index.js";
import { malformed, parsed, type ParseResult } from "./malformed-file-error.js";

/** The name of the topic-id file in each partition folder. */
export const PARTITION_METADATA_FILE = "partition.metadata";

const VERSION = 0;

/** The text of partition.metadata for `topicId`. */
export function formatPartitionMetadata(topicId: Uuid): string {
  return `version: ${VERSION}\ntopic_id: ${uuidToBase64(topicId)}\n`;
}

/** The value of a `key: value` line whose key is `key`, or undefined. */
function valueOf(line: string | undefined, key: string): string | undefined {
  if (line === undefined) return undefined;
  // Kafka splits these lines on a colon followed by whitespace.
  const parts = line.split(/:\s+/);
  if (parts.length !== 2 || parts[0] !== key) return undefined;
  return (parts[1] as string).trimEnd();
}

/** The topic id in partition.metadata text; only version 0 exists. */
export function parsePartitionMetadata(text: string): ParseResult<Uuid> {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length !== 2) return malformed(`expected 2 lines, found ${lines.length}`);
  const version = valueOf(lines[0], "version");
  if (version !== String(VERSION)) return malformed(`bad version line ${JSON.stringify(lines[0])}`);
  const topicIdText = valueOf(lines[1], "topic_id");
  const topicId = topicIdText === undefined ? undefined : uuidFromBase64(topicIdText);
  if (topicId === undefined) return malformed(`bad topic_id line ${JSON.stringify(lines[1])}`);
  return parsed(topicId);
}
