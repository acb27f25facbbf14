import { NodeFileSystem } from "../adapters/index.js";
import { dumpLog } from "./dump-log.js";

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
