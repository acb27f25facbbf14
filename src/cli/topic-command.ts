/**
 * `sluice topic list | create | describe | alter | delete | add-partitions`: topic
 * administration with the options of Kafka's kafka-topics.sh (and kafka-configs.sh's for a
 * topic's configs), over the project's client. A refusal prints as kafka-topics prints it,
 * `Error while executing topic command : NAME: message`, and exits 1.
 */
import { ErrorCode } from "../common/index.js";
import { createTopics, deleteTopics } from "../protocol/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import {
  CommandFailure,
  DEFAULT_BOOTSTRAP_SERVER,
  runAgainstCluster,
  type ClusterSession,
  type ClusterCommandIo,
} from "./cluster-session.js";
import { describeTopics } from "./topic-describe.js";
import { addPartitions, alterTopic, parseReplicaAssignment } from "./topic-alter.js";
import {
  configPairs,
  ifExists,
  integerOption,
  requiredTopic,
  wasTolerated,
  TOPIC_OPTIONS,
  type TopicOptions,
} from "./topic-options.js";

export const TOPIC_USAGE =
  "usage: sluice topic list|create|describe|alter|delete|add-partitions " +
  "[--bootstrap-server HOST:PORT] [--command-config FILE] [--topic NAME] [options]";

const TOPIC_HELP = [
  TOPIC_USAGE,
  "  list            the topics' names (--exclude-internal leaves out internal topics)",
  "  create          --topic NAME [--partitions N] [--replication-factor N]",
  "                  [--replica-assignment B:B,B:B...] [--config K=V]... [--if-not-exists]",
  "  describe        [--topic NAME] [--if-exists]: partitions, leader, replicas, ISR, configs",
  "  alter           --topic NAME [--config K=V]... [--delete-config K]... [--partitions N]",
  "                  [--replica-assignment ...] [--if-exists]",
  "  delete          --topic NAME [--if-exists]",
  "  add-partitions  --topic NAME --partitions N [--replica-assignment B:B,...] [--if-exists]",
  `--bootstrap-server defaults to ${DEFAULT_BOOTSTRAP_SERVER}; --command-timeout-ms to 30000.`,
];

const SUBCOMMANDS = ["list", "create", "describe", "alter", "delete", "add-partitions"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function isSubcommand(text: string | undefined): text is Subcommand {
  return SUBCOMMANDS.some((name) => name === text);
}

/** Runs `sluice topic` with the arguments after `topic`. */
export async function topicCommand(args: readonly string[], io: ClusterCommandIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "--help" || subcommand === "help" || rest.includes("--help")) {
    for (const line of TOPIC_HELP) io.write(line);
    return EXIT.ok;
  }
  const parsed = parseCommandOptions(rest, TOPIC_OPTIONS);
  if (!isSubcommand(subcommand) || parsed.kind === "usage" || parsed.positionals.length > 0) {
    if (parsed.kind === "usage") io.error(parsed.message);
    else if (!isSubcommand(subcommand)) io.error(`unknown topic command "${subcommand ?? ""}"`);
    else io.error(`unexpected ${parsed.positionals[0]}`);
    io.error(TOPIC_USAGE);
    return EXIT.usage;
  }
  const options: TopicOptions = {
    booleans: parsed.booleans,
    values: parsed.values,
    repeated: parsed.repeated,
  };
  const timeoutText = options.values.get("--command-timeout-ms") ?? "30000";
  const requestTimeoutMs = Number(timeoutText);
  if (!Number.isSafeInteger(requestTimeoutMs) || requestTimeoutMs <= 0) {
    io.error(`--command-timeout-ms: "${timeoutText}" is not a positive number`);
    return EXIT.usage;
  }
  return runAgainstCluster(
    options.values.get("--bootstrap-server"),
    io,
    {
      prefix: "Error while executing topic command : ",
      requestTimeoutMs,
      commandConfig: options.values.get("--command-config"),
    },
    (session) => session.retrying(() => runSubcommand(subcommand, session, options, io)),
  );
}

async function runSubcommand(
  subcommand: Subcommand,
  session: ClusterSession,
  options: TopicOptions,
  io: CommandOutput,
): Promise<number> {
  switch (subcommand) {
    case "list":
      return listTopics(session, options, io);
    case "create":
      return createTopic(session, options, io);
    case "describe":
      return describeTopics(session, options, io);
    case "alter":
      return alterTopic(session, options, io);
    case "delete":
      return deleteTopic(session, options);
    case "add-partitions":
      return addPartitions(session, options);
  }
}

async function listTopics(
  session: ClusterSession,
  options: TopicOptions,
  io: CommandOutput,
): Promise<number> {
  const response = await session.metadata(null);
  const excludeInternal = options.booleans.has("--exclude-internal");
  const names = response.topics
    .filter((topic) => topic.errorCode === ErrorCode.NONE && !(excludeInternal && topic.isInternal))
    .map((topic) => topic.name ?? "")
    .sort();
  for (const name of names) io.write(name);
  return EXIT.ok;
}

async function createTopic(
  session: ClusterSession,
  options: TopicOptions,
  io: CommandOutput,
): Promise<number> {
  const name = requiredTopic(options);
  const assignmentText = options.values.get("--replica-assignment");
  const assignments = assignmentText === undefined ? [] : parseReplicaAssignment(assignmentText);
  if (assignments.length > 0 && options.values.has("--partitions")) {
    throw new CommandFailure("--partitions cannot be given with --replica-assignment");
  }
  if (assignments.length > 0 && options.values.has("--replication-factor")) {
    throw new CommandFailure("--replication-factor cannot be given with --replica-assignment");
  }
  // -1 asks the controller for its num.partitions and default.replication.factor.
  const topic = {
    name,
    numPartitions: integerOption(options, "--partitions", -1),
    replicationFactor: integerOption(options, "--replication-factor", -1),
    assignments: assignments.map((brokerIds, partitionIndex) => ({ partitionIndex, brokerIds })),
    configs: configPairs(options),
  };
  const response = await session.send(createTopics, { topics: [topic] }, { maxVersion: 7 });
  const result = response.topics.find((entry) => entry.name === name);
  const ifNotExists = {
    errorCode: ErrorCode.TOPIC_ALREADY_EXISTS,
    isTolerated: options.booleans.has("--if-not-exists"),
  };
  if (wasTolerated(result, name, ifNotExists)) return EXIT.ok;
  io.write(`Created topic ${name}.`);
  return EXIT.ok;
}

async function deleteTopic(session: ClusterSession, options: TopicOptions): Promise<number> {
  const name = requiredTopic(options);
  const body = { topicNames: [name], topics: [{ name }] };
  const response = await session.send(deleteTopics, body, { maxVersion: 6 });
  wasTolerated(response.responses[0], name, ifExists(options));
  return EXIT.ok;
}
