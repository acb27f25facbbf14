/**
 * `sluice elect-leaders`: as kafka-leader-election.sh, asks the controller (ElectLeaders, through
 * any broker) to move leadership to each partition's preferred replica (`--election-type
 * preferred`) or, for a partition without a leader, to any live replica even outside the ISR
 * (`unclean`, which may lose acknowledged records). The partitions are `--topic T` with
 * `--partition N` (every partition of T without it), `--all-topic-partitions`, or those listed in
 * `--path-to-json-file` (`{"partitions":[{"topic":"t","partition":0}]}`).
 */
import { ErrorCode, errorName } from "../common/index.js";
import { electLeaders } from "../protocol/index.js";
import { EXIT } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { printRows, type AdminCommand, type AdminIo, type AdminOptions } from "./admin-command.js";
import { arrayField, readJsonFile } from "./json-file.js";

const ELECTION_TYPES = { preferred: 0, unclean: 1 } as const;

/** How long the controller may take over the elections before it answers. */
const ELECTION_TIMEOUT_MS = 30_000;

export const ELECT_LEADERS_COMMAND: AdminCommand = {
  name: "elect-leaders",
  usage:
    "usage: sluice elect-leaders --election-type preferred|unclean " +
    "(--topic T [--partition N] | --all-topic-partitions | --path-to-json-file FILE)",
  help: [
    "  preferred: each partition's first replica becomes leader if it is in the ISR;",
    "  unclean: a partition without a leader takes any live replica (records may be lost).",
    "  Prints a row per partition: ELECTED, ELECTION_NOT_NEEDED, or the refusal; exits 1 if any",
    "  election failed.",
  ],
  subcommands: [],
  options: {
    booleans: ["--all-topic-partitions"],
    values: ["--election-type", "--topic", "--partition", "--path-to-json-file"],
  },
  errorPrefix: "Error: ",
  isRetried: () => true,
  run: (_subcommand, session, options, io) => electLeadersCommand(session, options, io),
};

type Partitions = { topic: string; partitions: number[] }[] | null;

async function electLeadersCommand(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const typeText = (options.values.get("--election-type") ?? "").toLowerCase();
  if (typeText !== "preferred" && typeText !== "unclean") {
    throw new CommandFailure("--election-type preferred or unclean is required");
  }
  const partitions = await partitionsOf(session, options, io);
  const body = {
    electionType: ELECTION_TYPES[typeText],
    topicPartitions: partitions,
    timeoutMs: ELECTION_TIMEOUT_MS,
  };
  const response = await session.send(electLeaders, body, { maxVersion: 2 });
  if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
  const rows = response.replicaElectionResults
    .flatMap((topic) =>
      topic.partitionResult.map((result) => ({
        TOPIC: topic.topic,
        PARTITION: result.partitionId,
        RESULT: resultText(result.errorCode, result.errorMessage),
      })),
    )
    .sort((a, b) => a.TOPIC.localeCompare(b.TOPIC) || a.PARTITION - b.PARTITION);
  if (rows.length === 0 && !options.booleans.has("--json")) {
    io.write("No partition needed an election.");
  } else printRows(io, options, ["TOPIC", "PARTITION", "RESULT"], rows);
  const failed = rows.filter((row) => row.RESULT !== ELECTED && row.RESULT !== NOT_NEEDED);
  if (failed.length === 0) return EXIT.ok;
  io.error(`Error: ${failed.length} replica(s) could not be elected`);
  return EXIT.failed;
}

const ELECTED = "ELECTED";
const NOT_NEEDED = errorName(ErrorCode.ELECTION_NOT_NEEDED);

function resultText(errorCode: number, message: string | null): string {
  if (errorCode === ErrorCode.NONE) return ELECTED;
  if (errorCode === ErrorCode.ELECTION_NOT_NEEDED) return NOT_NEEDED;
  return `${errorName(errorCode)}${message === null ? "" : `: ${message}`}`;
}

/** The partitions the options name; null asks for every partition of the cluster. */
async function partitionsOf(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<Partitions> {
  const topic = options.values.get("--topic");
  const file = options.values.get("--path-to-json-file");
  const isAll = options.booleans.has("--all-topic-partitions");
  if ([topic !== undefined, file !== undefined, isAll].filter(Boolean).length !== 1) {
    throw new CommandFailure(
      "One and only one of the following options is required: " +
        "--topic, --all-topic-partitions, --path-to-json-file",
    );
  }
  const partitionText = options.values.get("--partition");
  if (partitionText !== undefined && topic === undefined) {
    throw new CommandFailure("Option --partition is only allowed if --topic is used");
  }
  if (isAll) return null;
  if (file !== undefined) return partitionsOfFile(await readJsonFile(io.fileSystem, file), file);
  const name = topic ?? "";
  if (partitionText !== undefined) {
    if (!/^\d+$/.test(partitionText)) {
      throw new CommandFailure(`--partition: "${partitionText}" is not a partition number`);
    }
    return [{ topic: name, partitions: [Number(partitionText)] }];
  }
  const metadata = await session.metadata([name]);
  const entry = metadata.topics.find((candidate) => candidate.name === name);
  if (entry === undefined || entry.errorCode !== ErrorCode.NONE) {
    const code = entry?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    throw kafkaFailure(code, `Topic '${name}' does not exist (sluice topic list shows them).`);
  }
  const indexes = entry.partitions.map((partition) => partition.partitionIndex);
  return [{ topic: name, partitions: indexes.sort((a, b) => a - b) }];
}

/** Kafka's election file: `{"partitions": [{"topic": "t", "partition": 0}, ...]}`. */
function partitionsOfFile(json: unknown, path: string): Partitions {
  const byTopic = new Map<string, number[]>();
  for (const entry of arrayField(json, "partitions", path)) {
    const { topic, partition } = (entry ?? {}) as { topic?: unknown; partition?: unknown };
    if (typeof topic !== "string" || !Number.isSafeInteger(partition)) {
      throw new CommandFailure(`${path}: each partition needs a "topic" and a "partition" number`);
    }
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition as number]);
  }
  if (byTopic.size === 0) throw new CommandFailure(`${path} lists no partitions`);
  return [...byTopic].map(([topic, partitions]) => ({ topic, partitions }));
}
