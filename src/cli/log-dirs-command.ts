/**
 * `sluice log-dirs describe | move`: a broker's log dirs and the replicas in each (DescribeLogDirs,
 * asked of every broker, as kafka-log-dirs.sh --describe; `--json` prints that tool's JSON), and
 * the move of replicas to another log dir of their broker (AlterReplicaLogDirs, which Kafka's
 * tools send from a reassignment's `log_dirs`). A move copies the replica in the background:
 * `describe` shows the copy as a future replica until it takes the original's place.
 */
import { brokerId, ErrorCode, errorName } from "../common/index.js";
import { alterReplicaLogDirs, describeLogDirs } from "../protocol/index.js";
import { EXIT } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import {
  isJson,
  printRows,
  type AdminCommand,
  type AdminIo,
  type AdminOptions,
} from "./admin-command.js";
import { parseBrokerList } from "./reassign-plan.js";

export const LOG_DIRS_COMMAND: AdminCommand = {
  name: "log-dirs",
  usage:
    "usage: sluice log-dirs describe [--broker-list B,...] [--topic-list T,...] | " +
    "move --broker B --log-dir PATH --topic T [--partition N]",
  help: [
    "  describe  each broker's log dirs (status, total and usable bytes) and the replicas in",
    "            them (size, offset lag, whether a future replica of a move); every live broker",
    "            and topic unless --broker-list or --topic-list",
    "  move      moves broker B's replicas of topic T (or of its --partition N) to its log dir",
    "            PATH; the copy runs in the background (describe shows it as FUTURE)",
  ],
  subcommands: ["describe", "move"],
  options: {
    booleans: [],
    values: ["--broker-list", "--topic-list", "--broker", "--log-dir", "--topic", "--partition"],
  },
  errorPrefix: "Error: ",
  isRetried: () => true,
  run: (subcommand, session, options, io) =>
    subcommand === "describe" ? describe(session, options, io) : move(session, options, io),
};

interface LogDirView {
  readonly logDir: string;
  readonly error: string | null;
  readonly totalBytes: number;
  readonly usableBytes: number;
  readonly partitions: readonly {
    readonly partition: string;
    readonly size: number;
    readonly offsetLag: number;
    readonly isFuture: boolean;
  }[];
}

async function describe(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const brokers = await brokersAsked(session, options);
  const topicText = options.values.get("--topic-list");
  const topics = topicText === undefined ? undefined : new Set(topicText.split(","));
  const described = [];
  for (const id of brokers) {
    described.push({ broker: id, logDirs: await brokerLogDirs(session, id, topics) });
  }
  if (isJson(options)) {
    io.write(JSON.stringify({ version: 1, brokers: described }, null, 2));
    return EXIT.ok;
  }
  printLogDirs(io, options, described);
  return EXIT.ok;
}

/** The brokers of --broker-list, every live broker without it; a broker not live is refused. */
async function brokersAsked(session: ClusterSession, options: AdminOptions): Promise<number[]> {
  const metadata = await session.metadata([]);
  const live = metadata.brokers.map((broker) => broker.nodeId).sort((a, b) => a - b);
  const listed = options.values.get("--broker-list");
  const brokers = listed === undefined ? live : parseBrokerList(listed);
  const unknown = brokers.filter((id) => !live.includes(id));
  if (unknown.length > 0) {
    throw new CommandFailure(
      `broker(s) ${unknown.join(",")} are not live brokers of the cluster ` +
        `(live: ${live.join(",")})`,
    );
  }
  return brokers;
}

/** One broker's log dirs (DescribeLogDirs) with their replicas of `topics` (all if undefined). */
async function brokerLogDirs(
  session: ClusterSession,
  id: number,
  topics: ReadonlySet<string> | undefined,
): Promise<LogDirView[]> {
  const response = await session.send(
    describeLogDirs,
    { topics: null },
    { maxVersion: 4, target: brokerId(id) },
  );
  if (response.errorCode !== ErrorCode.NONE) throw kafkaFailure(response.errorCode);
  return response.results
    .map((result) => ({
      logDir: result.logDir,
      error: result.errorCode === ErrorCode.NONE ? null : errorName(result.errorCode),
      totalBytes: result.totalBytes,
      usableBytes: result.usableBytes,
      partitions: result.topics
        .filter((topic) => topics === undefined || topics.has(topic.name))
        .flatMap((topic) =>
          topic.partitions.map((partition) => ({
            partition: `${topic.name}-${partition.partitionIndex}`,
            size: partition.partitionSize,
            offsetLag: partition.offsetLag,
            isFuture: partition.isFutureKey,
          })),
        )
        .sort((a, b) => a.partition.localeCompare(b.partition, "en", { numeric: true })),
    }))
    .sort((a, b) => a.logDir.localeCompare(b.logDir));
}

/** The tables: a row per log dir, then (if any) a row per replica. */
function printLogDirs(
  io: AdminIo,
  options: AdminOptions,
  described: readonly { broker: number; logDirs: readonly LogDirView[] }[],
): void {
  const dirRows = described.flatMap(({ broker, logDirs }) =>
    logDirs.map((dir) => ({
      BROKER: broker,
      "LOG-DIR": dir.logDir,
      STATUS: dir.error ?? "online",
      "TOTAL-BYTES": dir.totalBytes,
      "USABLE-BYTES": dir.usableBytes,
      REPLICAS: dir.partitions.length,
    })),
  );
  printRows(
    io,
    options,
    ["BROKER", "LOG-DIR", "STATUS", "TOTAL-BYTES", "USABLE-BYTES", "REPLICAS"],
    dirRows,
  );
  const replicaRows = described.flatMap(({ broker, logDirs }) =>
    logDirs.flatMap((dir) =>
      dir.partitions.map((partition) => ({
        BROKER: broker,
        "LOG-DIR": dir.logDir,
        PARTITION: partition.partition,
        SIZE: partition.size,
        "OFFSET-LAG": partition.offsetLag,
        FUTURE: partition.isFuture,
      })),
    ),
  );
  if (replicaRows.length === 0) return;
  io.write("");
  printRows(
    io,
    options,
    ["BROKER", "LOG-DIR", "PARTITION", "SIZE", "OFFSET-LAG", "FUTURE"],
    replicaRows,
  );
}

async function move(session: ClusterSession, options: AdminOptions, io: AdminIo): Promise<number> {
  const [broker] = parseBrokerList(options.values.get("--broker"));
  const path = options.values.get("--log-dir");
  const topic = options.values.get("--topic");
  if (broker === undefined || path === undefined || path === "" || topic === undefined) {
    throw new CommandFailure("move needs --broker B, --log-dir PATH and --topic T");
  }
  const metadata = await session.metadata([topic]);
  const entry = metadata.topics.find((candidate) => candidate.name === topic);
  if (entry === undefined || entry.errorCode !== ErrorCode.NONE) {
    const code = entry?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    throw kafkaFailure(code, `Topic '${topic}' does not exist (sluice topic list shows them).`);
  }
  const partitionText = options.values.get("--partition");
  if (partitionText !== undefined && !/^\d+$/.test(partitionText)) {
    throw new CommandFailure(`--partition: "${partitionText}" is not a partition number`);
  }
  // The replicas the broker holds: a partition on other brokers only is not asked about.
  const partitions = entry.partitions
    .filter((partition) => partition.replicaNodes.includes(broker))
    .map((partition) => partition.partitionIndex)
    .filter((index) => partitionText === undefined || index === Number(partitionText))
    .sort((a, b) => a - b);
  if (partitions.length === 0) {
    throw new CommandFailure(
      `broker ${broker} holds no replica of the partition(s) of ${topic} named`,
    );
  }
  const body = { dirs: [{ path, topics: [{ name: topic, partitions }] }] };
  const response = await session.send(alterReplicaLogDirs, body, {
    maxVersion: 2,
    target: brokerId(broker),
  });
  const rows = response.results.flatMap((result) =>
    result.partitions.map((partition) => ({
      TOPIC: result.topicName,
      PARTITION: partition.partitionIndex,
      RESULT: moveResult(partition.errorCode, broker, path),
    })),
  );
  printRows(io, options, ["TOPIC", "PARTITION", "RESULT"], rows);
  const failed = rows.filter((row) => row.RESULT !== MOVING);
  if (failed.length === 0) {
    if (!isJson(options))
      io.error("sluice log-dirs describe shows each copy (FUTURE) until it is done.");
    return EXIT.ok;
  }
  io.error(`Error: ${failed.length} replica(s) could not be moved`);
  return EXIT.failed;
}

const MOVING = "moving";

function moveResult(errorCode: number, broker: number, path: string): string {
  switch (errorCode) {
    case ErrorCode.NONE:
      return MOVING;
    case ErrorCode.LOG_DIR_NOT_FOUND:
      return (
        `LOG_DIR_NOT_FOUND: broker ${broker} has no log dir ${path} ` +
        "(see sluice log-dirs describe)"
      );
    case ErrorCode.KAFKA_STORAGE_ERROR:
      return `KAFKA_STORAGE_ERROR: the log dir ${path} of broker ${broker} is offline`;
    default:
      return errorName(errorCode);
  }
}
