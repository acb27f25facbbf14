import {
  CryptoRandom,
  NodeCrypto,
  NodeFileSystem,
  NodeNetwork,
  NodeProcesses,
  NodeTimers,
  SystemClock,
} from "../adapters/index.js";
import { runNodeProcess } from "../main/index.js";
import { EXIT, parseCommandOptions } from "./command-options.js";
import { dumpLog, DUMP_LOG_USAGE } from "./dump-log.js";
import { format, FORMAT_USAGE } from "./format.js";
import { quorumDescribe, QUORUM_DESCRIBE_USAGE } from "./quorum-describe.js";
import {
  ADD_CONTROLLER_USAGE,
  quorumAddController,
  quorumRemoveController,
  REMOVE_CONTROLLER_USAGE,
} from "./quorum-voters.js";
import { randomUuid } from "./random-uuid.js";
import { clusterCommand, CLUSTER_USAGES, LOCAL_CLUSTER_SUBCOMMANDS } from "./cluster-up.js";
import { consumeCommand, CONSUME_USAGE } from "./consume-command.js";
import { produceCommand, PRODUCE_USAGE } from "./produce-command.js";
import { topicCommand, TOPIC_USAGE } from "./topic-command.js";
import { ADMIN_USAGES, adminCommand } from "./admin-commands.js";

/** The `sluice` command line. Returns the process exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const [command] = args;
  // `cluster up | down | status` run a local cluster; the other `cluster` subcommands ask one.
  if (command === "cluster" && LOCAL_CLUSTER_SUBCOMMANDS.includes(args[1] ?? "")) {
    return localCluster(args.slice(1));
  }
  switch (command) {
    case "start":
      return start(args.slice(1));
    case "dump-log":
      return dumpLog(args.slice(1), {
        fileSystem: new NodeFileSystem(),
        write: (line) => process.stdout.write(`${line}\n`),
      });
    case "random-uuid":
      return randomUuid(args.slice(1), { ...standardOutput, random: new CryptoRandom() });
    case "format":
      return format(args.slice(1), {
        ...standardOutput,
        fileSystem: new NodeFileSystem(),
        random: new CryptoRandom(),
        crypto: new NodeCrypto(),
        clock: new SystemClock(),
        environment: process.env,
      });
    case "quorum":
      return quorum(args.slice(1));
    case "topic":
      return topicCommand(args.slice(1), clientIo());
    case "produce":
      return produceCommand(args.slice(1), { ...clientIo(), input: process.stdin });
    case "consume":
      return consumeCommand(args.slice(1), { ...clientIo(), isStopped: stopRequested() });
    case "acls":
    case "groups":
    case "configs":
    case "elect-leaders":
    case "reassign":
    case "log-dirs":
    case "cluster":
    case "features":
    case "transactions":
      return adminCommand(command, args.slice(1), clientIo());
    case undefined:
    case "help":
    case "--help":
      console.log(
        [
          START_USAGE,
          (FORMAT_USAGE.split("\n")[0] ?? "").replace("usage:", "      "),
          "       sluice random-uuid",
          DUMP_LOG_USAGE.replace("usage:", "      "),
          ...QUORUM_USAGES.map((usage) => usage.replace("usage:", "      ")),
          ...CLUSTER_USAGES.map((usage) => usage.replace("usage:", "      ")),
          ...[TOPIC_USAGE, PRODUCE_USAGE, CONSUME_USAGE, ...ADMIN_USAGES].map((usage) =>
            usage.replace("usage:", "      "),
          ),
        ].join("\n"),
      );
      return command === undefined ? 1 : 0;
    default:
      console.error(`sluice: unknown command "${command}"`);
      return 1;
  }
}

/** `sluice cluster up | down | status` with its nodes as detached processes of this machine. */
function localCluster(args: readonly string[]): Promise<number> {
  return clusterCommand(args, {
    ...clientIo(),
    // The waits between looks at the nodes are all that keeps the process alive meanwhile.
    timers: new NodeTimers({ unref: false }),
    fileSystem: new NodeFileSystem(),
    processes: new NodeProcesses(),
    environment: process.env,
    sluiceScript: process.argv[1] ?? "sluice",
    workingDir: process.cwd(),
  });
}

/** Where the subcommands of random-uuid, format and quorum write their lines. */
const standardOutput = {
  write: (line: string): void => {
    process.stdout.write(`${line}\n`);
  },
  error: (line: string): void => {
    process.stderr.write(`${line}\n`);
  },
};

/**
 * From now on SIGINT and SIGTERM do not end the process at once but make the returned probe
 * true, for a command that stops cleanly (a consumer commits its offsets first).
 */
function stopRequested(): () => boolean {
  let isStopped = false;
  const stop = (): void => {
    isStopped = true;
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => isStopped;
}

/**
 * The output and the client ports of the commands that talk to a cluster, with files and hashes
 * for `--command-config`.
 */
function clientIo() {
  return {
    ...standardOutput,
    fileSystem: new NodeFileSystem(),
    crypto: new NodeCrypto(),
    network: new NodeNetwork(),
    timers: new NodeTimers(),
    clock: new SystemClock(),
    random: new CryptoRandom(),
  };
}

const QUORUM_USAGES = [QUORUM_DESCRIBE_USAGE, ADD_CONTROLLER_USAGE, REMOVE_CONTROLLER_USAGE];

/** `sluice quorum describe | add-controller | remove-controller` over real sockets. */
async function quorum(args: readonly string[]): Promise<number> {
  const io = clientIo();
  switch (args[0]) {
    case "describe":
      return quorumDescribe(args.slice(1), io);
    case "add-controller":
      return quorumAddController(args.slice(1), {
        ...io,
        fileSystem: new NodeFileSystem(),
        environment: process.env,
      });
    case "remove-controller":
      return quorumRemoveController(args.slice(1), io);
    default:
      for (const usage of QUORUM_USAGES) console.error(usage);
      return 2;
  }
}

const START_USAGE = "usage: sluice start [--config FILE] [--cluster-id ID] [--set KEY=VALUE]...";

/**
 * `sluice start`: runs a node of the configured roles (the single-node preset of broker and
 * controller when no --config is given) until SIGINT or SIGTERM.
 */
async function start(args: readonly string[]): Promise<number> {
  const parsed = parseCommandOptions(args, {
    booleans: [],
    values: ["--config", "--cluster-id"],
    repeatable: ["--set"],
  });
  if (parsed.kind === "usage" || parsed.positionals.length > 0) {
    standardOutput.error(parsed.kind === "usage" ? parsed.message : START_USAGE);
    return EXIT.usage;
  }
  return runNodeProcess(
    {
      configPath: parsed.values.get("--config"),
      flags: parsed.repeated.get("--set") ?? [],
      environment: process.env,
      clusterIdToFormat: parsed.values.get("--cluster-id"),
    },
    standardOutput,
  );
}
