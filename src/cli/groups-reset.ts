/**
 * `sluice groups reset-offsets`: as kafka-consumer-groups.sh --reset-offsets, the new offset of
 * each partition chosen by one scenario (--to-earliest, --to-latest, --to-offset, --to-datetime,
 * --shift-by), printed, and committed (OffsetCommit without a generation, as an admin client's
 * AlterConsumerGroupOffsets) only with --execute. As Kafka, only a group without active members
 * may be reset: Empty, or Dead (no such group yet, which the commit then creates).
 */
import { ErrorCode } from "../common/index.js";
import { offsetCommit } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { printRows, type AdminOptions } from "./admin-command.js";
import {
  allCommittedOffsets,
  describeGroup,
  EARLIEST_TIMESTAMP,
  LATEST_TIMESTAMP,
  offsetsAt,
  partitionKey,
  requiredGroups,
  type GroupDescription,
} from "./groups-state.js";

const SCENARIOS = ["--to-earliest", "--to-latest", "--to-offset", "--to-datetime", "--shift-by"];

interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export async function resetOffsets(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const given = SCENARIOS.filter((name) => options.booleans.has(name) || options.values.has(name));
  if (given.length !== 1) {
    throw new CommandFailure(`reset-offsets needs exactly one of ${SCENARIOS.join(", ")}`);
  }
  if (options.booleans.has("--dry-run") && options.booleans.has("--execute")) {
    throw new CommandFailure("--dry-run and --execute cannot both be given");
  }
  const isExecuted = options.booleans.has("--execute");
  const rows = [];
  for (const groupId of requiredGroups(options)) {
    const group = await describeGroup(session, groupId);
    if (group.state !== "Empty" && group.state !== "Dead") {
      throw new CommandFailure(
        `Assignments can only be reset if the group '${groupId}' is inactive, but the current ` +
          `state is ${group.state}. Stop the group's consumers (a member that did not leave ` +
          "cleanly is removed after its session timeout) and run the command again.",
      );
    }
    const offsets = await newOffsets(session, group, options, io);
    if (isExecuted) await commit(session, group, offsets);
    for (const [{ topic, partition }, offset] of offsets) {
      rows.push({ GROUP: groupId, TOPIC: topic, PARTITION: partition, "NEW-OFFSET": offset });
    }
  }
  printRows(io, options, ["GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"], rows);
  if (!isExecuted && !options.booleans.has("--dry-run")) {
    io.error("Dry run: no offset was changed. Add --execute to reset them.");
  }
  return EXIT.ok;
}

/** The partitions `--topic T[:P,P...]` or `--all-topics` name, in topic and partition order. */
async function partitionsToReset(
  session: ClusterSession,
  group: GroupDescription,
  options: AdminOptions,
): Promise<TopicPartition[]> {
  const topicArgs = options.repeated.get("--topic") ?? [];
  const isAllTopics = options.booleans.has("--all-topics");
  if (topicArgs.length > 0 === isAllTopics) {
    throw new CommandFailure("reset-offsets needs either --topic T[:P,P...] or --all-topics");
  }
  if (isAllTopics) {
    const committed = await allCommittedOffsets(session, group);
    return sortPartitions([...committed.values()]);
  }
  const wanted = topicArgs.map(parseTopicArg);
  const metadata = await session.metadata(wanted.map((entry) => entry.topic));
  const partitions: TopicPartition[] = [];
  for (const { topic, partitions: chosen } of wanted) {
    const entry = metadata.topics.find((candidate) => candidate.name === topic);
    if (entry === undefined || entry.errorCode !== ErrorCode.NONE) {
      const code = entry?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      throw kafkaFailure(code, `Topic '${topic}' does not exist (sluice topic list shows them).`);
    }
    const existing = entry.partitions.map((partition) => partition.partitionIndex);
    for (const partition of chosen ?? existing) {
      if (!existing.includes(partition)) {
        throw kafkaFailure(
          ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
          `Partition ${partition} of topic ${topic} does not exist.`,
        );
      }
      partitions.push({ topic, partition });
    }
  }
  return sortPartitions(partitions);
}

function sortPartitions(partitions: TopicPartition[]): TopicPartition[] {
  const unique = new Map(
    partitions.map((entry) => [partitionKey(entry.topic, entry.partition), entry]),
  );
  return [...unique.values()].sort(
    (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
}

/** `topic` or `topic:0,1,2`. */
function parseTopicArg(text: string): { topic: string; partitions: number[] | undefined } {
  const colon = text.lastIndexOf(":");
  if (colon < 0) return { topic: text, partitions: undefined };
  const partitions = text
    .slice(colon + 1)
    .split(",")
    .map((part) => {
      if (!/^\d+$/.test(part.trim())) {
        throw new CommandFailure(`--topic "${text}": "${part}" is not a partition number`);
      }
      return Number(part.trim());
    });
  return { topic: text.slice(0, colon), partitions };
}

/** The offset each partition is reset to, by the scenario the options name. */
async function newOffsets(
  session: ClusterSession,
  group: GroupDescription,
  options: AdminOptions,
  io: CommandOutput,
): Promise<Map<TopicPartition, number>> {
  const partitions = await partitionsToReset(session, group, options);
  const earliest = await offsetsAt(session, partitions, EARLIEST_TIMESTAMP);
  const latest = await offsetsAt(session, partitions, LATEST_TIMESTAMP);
  const datetime = options.values.get("--to-datetime");
  const byTime =
    datetime === undefined
      ? undefined
      : await offsetsAt(session, partitions, parseDatetime(datetime));
  const committed = options.values.has("--shift-by")
    ? await allCommittedOffsets(session, group)
    : undefined;
  const result = new Map<TopicPartition, number>();
  for (const entry of partitions) {
    const key = partitionKey(entry.topic, entry.partition);
    const low = earliest.get(key);
    const high = latest.get(key);
    if (low === undefined || high === undefined) {
      throw kafkaFailure(
        ErrorCode.LEADER_NOT_AVAILABLE,
        `partition ${entry.topic}-${entry.partition} has no leader; run again once it has one`,
      );
    }
    let target: number;
    if (options.booleans.has("--to-earliest")) target = low;
    else if (options.booleans.has("--to-latest")) target = high;
    else if (byTime !== undefined) {
      // -1: no record at or after the time; the group then starts at the end.
      const found = byTime.get(key) ?? -1;
      target = found >= 0 ? found : high;
    } else if (committed !== undefined) {
      const current = committed.get(key)?.offset;
      if (current === undefined) {
        throw new CommandFailure(
          `Cannot shift offset for partition ${entry.topic}-${entry.partition} since there is ` +
            "no current committed offset; use --to-earliest, --to-latest or --to-offset",
        );
      }
      target = current + wholeNumber(options, "--shift-by");
    } else target = wholeNumber(options, "--to-offset");
    result.set(entry, clamp(target, low, high, entry, io));
  }
  return result;
}

/** As Kafka, an offset outside the log is moved to its nearest end, with a warning. */
function clamp(
  target: number,
  low: number,
  high: number,
  entry: TopicPartition,
  io: CommandOutput,
): number {
  const name = `${entry.topic}-${entry.partition}`;
  if (target < low) {
    io.error(`New offset (${target}) is lower than earliest offset for ${name}; using ${low}.`);
    return low;
  }
  if (target > high) {
    io.error(`New offset (${target}) is higher than latest offset for ${name}; using ${high}.`);
    return high;
  }
  return target;
}

function wholeNumber(options: AdminOptions, name: string): number {
  const text = options.values.get(name) ?? "";
  const value = Number(text);
  if (!/^-?\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new CommandFailure(`${name}: "${text}" is not a whole number`);
  }
  return value;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Kafka's `YYYY-MM-DDTHH:mm:SS.sss`, with an optional zone (`Z`, `+02:00`); without one the
 * time is local, as Kafka reads it.
 */
export function parseDatetime(text: string): number {
  const zone = /([+-]\d{2})(\d{2})$/;
  const normalised = text.replace(zone, "$1:$2");
  const time = DATETIME.test(text) ? Date.parse(normalised) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new CommandFailure(
      `--to-datetime: "${text}" is not YYYY-MM-DDTHH:mm:SS.sss (e.g. 2024-05-01T12:00:00.000Z)`,
    );
  }
  return time;
}

async function commit(
  session: ClusterSession,
  group: GroupDescription,
  offsets: ReadonlyMap<TopicPartition, number>,
): Promise<void> {
  const topics = new Map<string, { partitionIndex: number; committedOffset: number }[]>();
  for (const [{ topic, partition }, offset] of offsets) {
    topics.set(topic, [
      ...(topics.get(topic) ?? []),
      { partitionIndex: partition, committedOffset: offset },
    ]);
  }
  const body = {
    groupId: group.groupId,
    generationIdOrMemberEpoch: -1,
    memberId: "",
    groupInstanceId: null,
    retentionTimeMs: -1,
    topics: [...topics].map(([name, partitions]) => ({
      name,
      partitions: partitions.map((entry) => ({
        ...entry,
        committedLeaderEpoch: -1,
        committedMetadata: "",
      })),
    })),
  };
  const response = await session.send(offsetCommit, body, {
    maxVersion: 8,
    target: group.coordinator,
  });
  for (const topic of response.topics) {
    for (const entry of topic.partitions) {
      if (entry.errorCode !== ErrorCode.NONE) throw kafkaFailure(entry.errorCode);
    }
  }
}
