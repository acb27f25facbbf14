import {
  CryptoRandom,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  SystemClock,
} from "../adapters/index.js";
import { dumpLog } from "./dump-log.js";
import { format } from "./format.js";
import { quorumDescribe, QUORUM_DESCRIBE_USAGE } from "./quorum-describe.js";
import { randomUuid } from "./random-uuid.js";

/** The `sluice` command line. Returns the process exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const [command] = args;
  switch (command) {
    case "start":
      console.log(
        "Sluice 0.1.0: the broker is not built yet. This build holds the Kafka protocol codec, " +
          "the I/O ports and the simulator; nothing listens yet.",
      );
      return 0;
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
