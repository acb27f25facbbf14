/**
 * The harness's own proof: `--plant NAME` runs the nodes from a copy of the build with one of
 * the known bugs of test/mutants/planted-bugs.ts planted (for example acks=all answered before
 * the high watermark passes the batch), so that a scenario can show it finds the bug. The
 * shipped build is never changed and holds no switch for it.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { plantedCopy } from "../test/mutants/plant.js";
import { PLANTED_BUGS } from "../test/mutants/planted-bugs.js";
import { useSluiceScript } from "./node-process.js";

export const PLANTABLE = PLANTED_BUGS.map((bug) => bug.name);

/** Copies the build with `name` planted and makes the nodes run from the copy. */
export function plant(name: string): string {
  const bug = PLANTED_BUGS.find((each) => each.name === name);
  if (bug === undefined) throw new Error(`no planted bug ${name}: one of ${PLANTABLE.join(", ")}`);
  const dir = plantedCopy(bug);
  const script = join(dir, "sluice.js");
  writeFileSync(
    script,
    'import { main } from "./src/cli/index.js";\n' +
      "process.exitCode = await main(process.argv.slice(2));\n",
  );
  useSluiceScript(script);
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return `${bug.name}: ${bug.description}`;
}
