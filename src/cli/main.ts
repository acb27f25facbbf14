import {
  CryptoRandom,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  SystemClock,
} from "../adapters/index.js";
import { runNodeProcess } from "../main/index.js";
import { EXIT, parseCommandOptions } from "./command-options.js";
import { dumpLog } from "./dump-log.js";
import { format } from "./format.js";
import { quorumDescribe, QUORUM_DESCRIBE_USAGE } from "./quorum-describe.js";
import { randomUuid } from "./random-uuid.js";

/** The `sluice` command line. Returns the process exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const [command] = args;
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
        clock: new SystemClock(),
        environment: process.env,
      });
    case "quorum":
      if (args[1] !== "describe") {
        console.error(QUORUM_DESCRIBE_USAGE);
        return 2;
      }
      return quorumDescribe(args.slice(2), {
        ...standardOutput,
        network: new NodeNetwork(),
        timers: new NodeTimers(),
        clock: new SystemClock(),
        random: new CryptoRandom(),
      });
    case undefined:
    case "help":
    case "--help":
      console.log(
        [
          START_USAGE,
          "       sluice format --config FILE --cluster-id ID",
          "       sluice random-uuid",
        ].join("\n"),
      );
      return command === undefined ? 1 : 0;
    default:
      console.error(`sluice: unknown command "${command}"`);
      return 1;
  }
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

/** The usage text of `sluice start`. */
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
