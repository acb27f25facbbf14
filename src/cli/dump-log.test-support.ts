/** Runs `sluice dump-log` over files in memory, for the dump tests. */
import { dumpLog } from "./dump-log.js";
import { FilesOnly } from "./files-only.test-support.js";

/** The exit code and the lines `sluice dump-log <args>` writes over `files`. */
export async function runDumpLog(files: Map<string, Uint8Array>, args: string[]) {
  const lines: string[] = [];
  const exitCode = await dumpLog(args, {
    fileSystem: new FilesOnly(files),
    write: (line) => lines.push(line),
  });
  return { exitCode, lines };
}
