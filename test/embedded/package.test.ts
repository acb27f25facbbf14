/**
 * The published package as an application gets it: `npm pack` of this repository, the tarball
 * unpacked into a separate project's node_modules/sluice (what `npm install` does; its
 * dependencies and kafkajs are linked from this repository's node_modules rather than built
 * again), then, from that project, `import { startCluster } from "sluice"` run with kafkajs
 * (package-app/check.mjs) and type-checked with the package's declarations
 * (package-app/check-types.ts). The build must be current: the pack skips the prepack build.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const APP_SOURCES = join(ROOT, "test", "embedded", "package-app");
const work = mkdtempSync(join(tmpdir(), "sluice-package-"));

after(() => rmSync(work, { recursive: true, force: true }));

/** Links `name` from this repository's node_modules into `modules`. */
function link(modules: string, name: string): void {
  const target = join(modules, name);
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(join(ROOT, "node_modules", name), target);
}

test("the packed package serves startCluster with types to a separate project", async () => {
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--pack-destination", work], {
    cwd: ROOT,
    timeout: 120_000,
  });
  const tarball = join(work, stdout.trim().split("\n").pop() ?? "");
  const app = join(work, "app");
  const modules = join(app, "node_modules");
  const installed = join(modules, "sluice");
  mkdirSync(installed, { recursive: true });
  await run("tar", ["-xzf", tarball, "-C", installed, "--strip-components=1"]);
  const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  for (const name of Object.keys(manifest.dependencies ?? {})) link(modules, name);
  for (const name of ["kafkajs", "@types/node"]) link(modules, name);
  copyFileSync(join(APP_SOURCES, "check.mjs"), join(app, "check.mjs"));
  copyFileSync(join(APP_SOURCES, "check-types.ts"), join(app, "check-types.ts"));
  const appManifest = { name: "app", private: true, type: "module" };
  writeFileSync(join(app, "package.json"), JSON.stringify(appManifest));

  const result = await run(process.execPath, ["check.mjs"], { cwd: app, timeout: 120_000 });
  assert.match(result.stdout, /^ok: leader \d stopped, values before,after/);

  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const flags = ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext"];
  const target = ["--target", "es2022", "--lib", "es2022,esnext.disposable", "--types", "node"];
  await run(process.execPath, [tsc, ...flags, ...target, "check-types.ts"], {
    cwd: app,
    timeout: 120_000,
  });
});
