import {
  CryptoRandom,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  SystemClock,
} from "../adapters/index.js";
import { runControllerProcess } from "../main/index.js";
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
      console.log("usage: sluice start");
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
 * `sluice start`: a controller-only node runs its controller; other roles wait for the broker,
 * which is not built yet.
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
  const outcome = await runControllerProcess(
    {
      configPath: parsed.values.get("--config"),
      flags: parsed.repeated.get("--set") ?? [],
      environment: process.env,
      clusterIdToFormat: parsed.values.get("--cluster-id"),
    },
    standardOutput,
  );
  if (outcome !== "notController") return outcome;
  console.log(
    "Sluice 0.1.0: the broker is not built yet. This build holds the Kafka protocol codec, " +
      "the I/O ports and the simulator; nothing listens yet.",
  );
  return 0;
}
