/**
 * The JSON files of `sluice reassign`, in kafka-reassign-partitions.sh's formats: a topics file
 * (`{"version":1,"topics":[{"topic":"t"}]}`) for `generate`, and a reassignment
 * (`{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],
 * "log_dirs":["any","any"]}]}`) that `generate` proposes and `execute`, `verify` and `cancel`
 * read. Also the proposal itself: each partition's replicas spread over the brokers given.
 */
import { CommandFailure } from "./cluster-session.js";
import { arrayField } from "./json-file.js";

/** One partition's replicas in a reassignment. */
export interface PartitionReplicas {
  readonly topic: string;
  readonly partition: number;
  readonly replicas: readonly number[];
}

/** A reassignment as Kafka's tool writes it. */
export interface ReassignmentJson {
  readonly version: 1;
  readonly partitions: readonly {
    readonly topic: string;
    readonly partition: number;
    readonly replicas: readonly number[];
    readonly log_dirs: readonly string[];
  }[];
}

/** The log dir of a replica that may live in any of its broker's dirs. */
const ANY_LOG_DIR = "any";

/** The topics of a topics-to-move file. */
export function parseTopicsFile(json: unknown, path: string): string[] {
  const topics = arrayField(json, "topics", path).map((entry) => {
    const topic = (entry as { topic?: unknown } | null)?.topic;
    if (typeof topic !== "string" || topic === "") {
      throw new CommandFailure(`${path}: each entry of "topics" needs a "topic" name`);
    }
    return topic;
  });
  if (topics.length === 0) throw new CommandFailure(`${path} lists no topics`);
  return [...new Set(topics)];
}

/** The partitions of a reassignment file, each with its target replicas. */
export function parseReassignmentFile(json: unknown, path: string): PartitionReplicas[] {
  const seen = new Set<string>();
  const partitions = arrayField(json, "partitions", path).map((entry) => {
    const {
      topic,
      partition,
      replicas,
      log_dirs: logDirs,
    } = (entry ?? {}) as Record<string, unknown>;
    const isIds =
      Array.isArray(replicas) && replicas.every((id) => Number.isSafeInteger(id) && id >= 0);
    if (typeof topic !== "string" || !Number.isSafeInteger(partition) || !isIds) {
      throw new CommandFailure(
        `${path}: each partition needs "topic", "partition" and "replicas" (broker ids)`,
      );
    }
    const ids = replicas as number[];
    const name = `${topic}-${String(partition)}`;
    if (ids.length === 0 || new Set(ids).size !== ids.length) {
      throw new CommandFailure(`${path}: partition ${name} needs distinct replicas`);
    }
    if (seen.has(name)) throw new CommandFailure(`${path}: partition ${name} is listed twice`);
    seen.add(name);
    if (Array.isArray(logDirs) && logDirs.some((dir) => dir !== ANY_LOG_DIR)) {
      throw new CommandFailure(
        `${path}: partition ${name} names log dirs; only "any" is taken here ` +
          "(move replicas between dirs afterwards with sluice log-dirs move)",
      );
    }
    return { topic, partition: partition as number, replicas: ids };
  });
  if (partitions.length === 0) throw new CommandFailure(`${path} lists no partitions`);
  return partitions;
}

/** The reassignment JSON of `partitions`, sorted by topic and partition. */
export function reassignmentJson(partitions: readonly PartitionReplicas[]): ReassignmentJson {
  const sorted = [...partitions].sort(
    (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
  return {
    version: 1,
    partitions: sorted.map(({ topic, partition, replicas }) => ({
      topic,
      partition,
      replicas: [...replicas],
      log_dirs: replicas.map(() => ANY_LOG_DIR),
    })),
  };
}

/**
 * A proposal for `current`: each partition keeps its replication factor, with replicas taken
 * in turn from `brokers` (partition p starts at broker p of each topic's list, so leaders spread
 * as well as replicas). Deterministic, unlike Kafka's tool, which picks a random start.
 */
export function proposeReassignment(
  current: readonly PartitionReplicas[],
  brokers: readonly number[],
): PartitionReplicas[] {
  return current.map(({ topic, partition, replicas }) => {
    if (replicas.length > brokers.length) {
      throw new CommandFailure(
        `partition ${topic}-${partition} has ${replicas.length} replicas but --broker-list ` +
          `names ${brokers.length} broker(s); name at least ${replicas.length}`,
      );
    }
    const proposed = replicas.map(
      (_, index) => brokers[(partition + index) % brokers.length] as number,
    );
    return { topic, partition, replicas: proposed };
  });
}

/** `--broker-list 1,2,3`. */
export function parseBrokerList(text: string | undefined): number[] {
  if (text === undefined) throw new CommandFailure("--broker-list B,B,... is required");
  const ids = text.split(",").map((part) => {
    if (!/^\d+$/.test(part.trim())) {
      throw new CommandFailure(`--broker-list: "${part}" is not a broker id`);
    }
    return Number(part.trim());
  });
  if (new Set(ids).size !== ids.length)
    throw new CommandFailure("--broker-list names a broker twice");
  return ids;
}
