/**
 * The dashboard's message browser on a broker: reads a partition's records through the replica
 * manager, as a consumer's Fetch does (read_uncommitted, up to the high watermark, the first
 * batch whole), from any replica this broker hosts, leader or follower, as KIP-392 lets a
 * consumer read from a follower. A timestamp is turned into an offset by the partition's
 * ListOffsets lookup. The batches read are decoded (decompressed within the limit
 * message.max.bytes sets) and their records from the start offset on, control records left out,
 * are handed to the page, at most the asked number.
 */
import { ErrorCode, errorName } from "../common/index.js";
import type { BrowseRequest, BrowseResult, BrowsedRecord, MessageSource } from "../http/index.js";
import { decodeRecords, decompressionLimitFor, iterateBatches } from "../protocol/index.js";
import type { ReplicaManager } from "../replication/index.js";
import { EARLIEST_TIMESTAMP, type TopicPartition } from "../storage/index.js";

export interface MessageBrowserOptions {
  readonly replicaManager: ReplicaManager;
  readonly messageMaxBytes: number;
  /** The listener name a follower read is made as (the first client listener). */
  readonly listenerName: string;
}

export function brokerMessageSource(options: MessageBrowserOptions): MessageSource {
  return { browse: (request) => browse(options, request) };
}

async function browse(
  options: MessageBrowserOptions,
  request: BrowseRequest,
): Promise<BrowseResult> {
  const topicPartition = { topic: request.topic, partition: request.partition };
  const lookup = options.replicaManager.getPartitionOrError(topicPartition);
  if (lookup.kind === "error") return refusedFor(lookup.errorCode, topicPartition);
  const startOffset = await startOffsetOf(lookup.partition, request);
  if (typeof startOffset !== "number") return startOffset;
  const read = await readFrom(options, { topicPartition, startOffset, maxBytes: request.maxBytes });
  if (read.kind === "error") return refusedFor(read.errorCode, topicPartition);
  const records = decodeFrom(read.records, {
    startOffset,
    maxRecords: request.maxRecords,
    maxDecompressedBytes: decompressionLimitFor({ messageMaxBytes: options.messageMaxBytes }),
  });
  if (typeof records === "string") return { kind: "refused", status: 503, message: records };
  return {
    kind: "records",
    startOffset,
    logStartOffset: read.logStartOffset,
    highWatermark: read.highWatermark,
    records,
  };
}

type HostedPartition = Extract<
  ReturnType<ReplicaManager["getPartitionOrError"]>,
  { kind: "online" }
>["partition"];

/** The offset to read from: the one asked, or ListOffsets' answer for a timestamp or earliest. */
async function startOffsetOf(
  partition: HostedPartition,
  request: BrowseRequest,
): Promise<number | BrowseResult> {
  const { start } = request;
  if (start.kind === "offset") return start.offset;
  const timestamp = start.kind === "timestamp" ? start.timestamp : EARLIEST_TIMESTAMP;
  const found = await partition.fetchOffsetForTimestamp(timestamp, {
    isolation: "read_uncommitted",
    currentLeaderEpoch: -1,
    fetchOnlyFromLeader: false,
  });
  if (found.kind === "found") return found.offset;
  if (found.kind === "notFound") {
    const message = "no record has a timestamp at or after the one asked for";
    return { kind: "refused", status: 404, message };
  }
  return refusedFor(found.errorCode, { topic: request.topic, partition: request.partition });
}

async function readFrom(
  options: MessageBrowserOptions,
  asked: { topicPartition: TopicPartition; startOffset: number; maxBytes: number },
) {
  const request = {
    fetchOffset: asked.startOffset,
    maxBytes: asked.maxBytes,
    isolation: "read_uncommitted" as const,
    currentLeaderEpoch: -1,
    replicaId: -1,
    logStartOffset: -1,
    brokerEpoch: -1,
    lastFetchedEpoch: -1,
  };
  const read = async (isFromFollower: boolean) => {
    const clientMetadata = isFromFollower
      ? { rackId: "", listenerName: options.listenerName }
      : undefined;
    const [answer] = await options.replicaManager.fetchMessages(
      [{ topicPartition: asked.topicPartition, request }],
      { maxBytes: asked.maxBytes, isHardMaxBytesLimit: false, clientMetadata },
    );
    if (answer === undefined) throw new Error("a read answers each partition asked");
    return answer.outcome;
  };
  const outcome = await read(true);
  // The leader may name a closer replica for a consumer with client metadata; it is read here.
  if (outcome.kind === "records" && outcome.preferredReadReplica !== undefined) return read(false);
  return outcome;
}

/** The records at or after `startOffset`, or what is wrong with the batches. */
function decodeFrom(
  chunks: readonly Uint8Array[],
  limits: { startOffset: number; maxRecords: number; maxDecompressedBytes: number },
): BrowsedRecord[] | string {
  const bytes = joined(chunks);
  const records: BrowsedRecord[] = [];
  for (const entry of iterateBatches(bytes, { maxBatchBytes: limits.maxDecompressedBytes })) {
    if (entry.kind === "partial") break;
    if (entry.kind !== "batch") return `the log holds a batch that cannot be read (${entry.kind})`;
    if (entry.header.isControl) continue;
    const decoded = decodeRecords(entry.bytes, limits);
    if (!decoded.ok) return `a batch at offset ${entry.header.baseOffset} cannot be decoded`;
    for (const record of decoded.records) {
      if (record.offset < limits.startOffset) continue;
      records.push({ ...record, headers: [...record.headers] });
      if (records.length >= limits.maxRecords) return records;
    }
  }
  return records;
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const bytes = new Uint8Array(total);
  let position = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, position);
    position += chunk.length;
  }
  return bytes;
}

function refusedFor(errorCode: number, topicPartition: TopicPartition): BrowseResult {
  const where = `${topicPartition.topic}-${topicPartition.partition}`;
  if (errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
    return { kind: "refused", status: 404, message: `no partition ${where}` };
  }
  if (errorCode === ErrorCode.NOT_LEADER_OR_FOLLOWER) {
    const message = `this broker hosts no replica of ${where}: browse it on one that does`;
    return { kind: "refused", status: 404, message };
  }
  if (errorCode === ErrorCode.OFFSET_OUT_OF_RANGE) {
    const message = `the offset is outside ${where}'s log (see its log start and high watermark)`;
    return { kind: "refused", status: 400, message };
  }
  return { kind: "refused", status: 503, message: `${where}: ${errorName(errorCode)}` };
}
