/**
 * What produce and consume share about a topic's partitions: the leaders from Metadata, the
 * key-to-partition rule of Kafka's default partitioner (murmur2 of the key bytes), and reading
 * standard input as lines.
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";

/** Partition index to the broker id of its leader. */
export type Leaders = ReadonlyMap<number, BrokerId>;

/** The leader of every partition of `topic`; a topic that does not exist ends the command. */
export async function partitionLeaders(session: ClusterSession, topic: string): Promise<Leaders> {
  const response = await session.metadata([topic]);
  const entry = response.topics.find((candidate) => candidate.name === topic);
  if (entry === undefined) throw new CommandFailure(`no metadata for topic ${topic}`);
  if (entry.errorCode !== ErrorCode.NONE) {
    const message =
      entry.errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        ? `Topic ${topic} not present in metadata.`
        : undefined;
    throw kafkaFailure(entry.errorCode, message);
  }
  const leaders = new Map<number, BrokerId>();
  for (const partition of entry.partitions) {
    if (partition.errorCode !== ErrorCode.NONE && partition.leaderId < 0) {
      throw kafkaFailure(partition.errorCode);
    }
    if (partition.leaderId < 0) throw kafkaFailure(ErrorCode.LEADER_NOT_AVAILABLE);
    leaders.set(partition.partitionIndex, brokerId(partition.leaderId));
  }
  return leaders;
}

/** The leader of `partition`, or a failure naming the partition that does not exist. */
export function leaderOf(leaders: Leaders, topic: string, partition: number): BrokerId {
  const leader = leaders.get(partition);
  if (leader === undefined) {
    throw kafkaFailure(
      ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
      `Partition ${partition} of topic ${topic} does not exist.`,
    );
  }
  return leader;
}

/** Kafka's `Utils.murmur2`: the partitioner's hash of a key, so keys land where Java puts them. */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  let h = (0x9747b28c ^ data.length) | 0;
  const whole = data.length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k =
      (data[i] ?? 0) |
      ((data[i + 1] ?? 0) << 8) |
      ((data[i + 2] ?? 0) << 16) |
      ((data[i + 3] ?? 0) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = data.length & 3;
  if (rest === 3) h ^= (data[whole + 2] ?? 0) << 16;
  if (rest >= 2) h ^= (data[whole + 1] ?? 0) << 8;
  if (rest >= 1) {
    h ^= data[whole] ?? 0;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition Kafka's default partitioner picks for a key among `partitionCount`. */
export function partitionForKey(key: Uint8Array, partitionCount: number): number {
  return (murmur2(key) & 0x7fffffff) % partitionCount;
}

/** The lines of a byte stream, without their line ends ("\n" or "\r\n"). */
export async function* linesOf(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of input) {
    pending += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let end = pending.indexOf("\n");
    while (end >= 0) {
      yield pending.slice(0, end).replace(/\r$/, "");
      pending = pending.slice(end + 1);
      end = pending.indexOf("\n");
    }
  }
  pending += decoder.decode();
  if (pending !== "") yield pending.replace(/\r$/, "");
}
