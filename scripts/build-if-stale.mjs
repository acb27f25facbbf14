// Compiles the TypeScript sources (tsc -p tsconfig.json) only when the build is not current: when
// dist/.build-stamp, written after the last successful build here, is older than a file or
// folder under the compiled folders or than tsconfig.json, package.json or package-lock.json.
// A folder's time changes when a file is added, renamed or removed, so those rebuild too.
// `npm start` runs it, so that a start after an unchanged checkout does not wait for tsc.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "dist", ".build-stamp");
const compiledFolders = ["src", "sim", "test", "bench", "chaos"];
const inputFiles = ["tsconfig.json", "package.json", "package-lock.json"];

/** The latest modification time (ms) of `path` and, for a folder, of everything beneath it. */
function newestMs(path) {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return 0;
  let newest = stats.mtimeMs;
  if (!stats.isDirectory()) return newest;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    // Installed packages (test/node22's) are not sources.
    if (entry.name === "node_modules") continue;
    newest = Math.max(newest, newestMs(join(path, entry.name)));
  }
  return newest;
}

const builtMs = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs;
const inputs = [...compiledFolders, ...inputFiles];
const sourcesMs = Math.max(...inputs.map((path) => newestMs(join(root, path))));
// Compared to the millisecond, the precision the stamp's time is set with.
if (builtMs === undefined || Math.floor(sourcesMs) > Math.floor(builtMs)) {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const build = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.json")], {
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, "the sources compiled into dist/ are as of this file's time\n");
  // The stamp takes the time of the newest source seen before the build, so that a file saved
  // while tsc ran is newer and the next start builds again.
  utimesSync(stamp, new Date(), new Date(sourcesMs));
}
