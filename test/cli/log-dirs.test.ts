/**
 * `sluice log-dirs` and `sluice cluster health` run as child processes against one real node
 * with two log dirs: the dirs and their replicas described (table and Kafka's JSON), a replica
 * moved to the other dir and found there once the copy is done, refusals of a dir or broker
 * that does not exist, and a healthy single-node cluster.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SluiceProcess, withDeadline } from "../clients/sluice-process.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

let node: SluiceProcess;
let dirs: string;

interface Described {
  readonly brokers: readonly {
    readonly broker: number;
    readonly logDirs: readonly {
      readonly logDir: string;
      readonly error: string | null;
      readonly partitions: readonly { partition: string; size: number; isFuture: boolean }[];
    }[];
  }[];
}

before(async () => {
  dirs = mkdtempSync(join(tmpdir(), "sluice-log-dirs-"));
  node = await SluiceProcess.create([`log.dirs=${join(dirs, "a")},${join(dirs, "b")}`]);
  await node.start();
  const args = ["--bootstrap-server", node.bootstrap];
  assert.equal(
    (await runSluice(["topic", "create", "--topic", "spread", "--partitions", "2", ...args])).code,
    0,
  );
  const produced = await runSluice(
    ["produce", "spread", "--partition", "0", ...args],
    "one\ntwo\nthree\n",
  );
  assert.equal(produced.code, 0, produced.stderr);
});

after(async () => {
  await node.destroy();
  rmSync(dirs, { recursive: true, force: true });
});

function sluice(...args: string[]): Promise<Outcome> {
  return runSluice([...args, "--bootstrap-server", node.bootstrap]);
}

/** The dir that holds `partition` as a current (not future) replica. */
async function dirOf(partition: string): Promise<string | undefined> {
  const described = json<Described>(await sluice("log-dirs", "describe", "--json"));
  const logDirs = described.brokers[0]?.logDirs ?? [];
  return logDirs.find((dir) =>
    dir.partitions.some((entry) => entry.partition === partition && !entry.isFuture),
  )?.logDir;
}

test("describe lists both dirs and the replicas in them", async () => {
  const described = await sluice("log-dirs", "describe");
  assert.equal(described.code, 0, described.stderr);
  const [dirHeader, first, second, blank, replicaHeader, ...replicas] =
    described.stdout.split("\n");
  assert.match(dirHeader ?? "", /^BROKER +LOG-DIR +STATUS +TOTAL-BYTES +USABLE-BYTES +REPLICAS$/);
  assert.match(first ?? "", new RegExp(`^1 +${join(dirs, "a")} +online +\\d+ +\\d+ +\\d+$`));
  assert.match(second ?? "", new RegExp(`^1 +${join(dirs, "b")} +online +\\d+ +\\d+ +\\d+$`));
  assert.equal(blank, "");
  assert.match(replicaHeader ?? "", /^BROKER +LOG-DIR +PARTITION +SIZE +OFFSET-LAG +FUTURE$/);
  assert.ok(
    replicas.some((line) => / spread-0 +\d+ +0 +false$/.test(line)),
    described.stdout,
  );
  const filtered = json<Described>(
    await sluice("log-dirs", "describe", "--topic-list", "spread", "--json"),
  );
  const names = filtered.brokers[0]?.logDirs.flatMap((dir) =>
    dir.partitions.map((p) => p.partition),
  );
  assert.deepEqual(names?.sort(), ["spread-0", "spread-1"]);
});

test("move copies a replica to the other dir of its broker", async () => {
  const from = await dirOf("spread-0");
  assert.ok(from !== undefined);
  const to = from === join(dirs, "a") ? join(dirs, "b") : join(dirs, "a");
  const moved = await sluice(
    "log-dirs",
    "move",
    "--broker",
    "1",
    "--log-dir",
    to,
    "--topic",
    "spread",
    "--partition",
    "0",
  );
  assert.equal(moved.code, 0, moved.stderr);
  assert.match(lines(moved.stdout)[1] ?? "", /^spread +0 +moving$/);
  const arrived = async (): Promise<void> => {
    while ((await dirOf("spread-0")) !== to)
      await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await withDeadline(arrived(), 60_000, () => `spread-0 did not reach ${to}`);
  const consumed = await sluice(
    "consume",
    "spread",
    "--partition",
    "0",
    "--offset",
    "earliest",
    "--max-messages",
    "3",
  );
  assert.equal(consumed.stdout, "one\ntwo\nthree\n");
});

test("refusals: a dir the broker lacks, an absent broker; the cluster is healthy", async () => {
  const noDir = await sluice(
    "log-dirs",
    "move",
    "--broker",
    "1",
    "--log-dir",
    join(dirs, "c"),
    "--topic",
    "spread",
  );
  assert.equal(noDir.code, 1);
  assert.match(noDir.stdout, /LOG_DIR_NOT_FOUND: broker 1 has no log dir/);
  const noBroker = await sluice("log-dirs", "describe", "--broker-list", "7");
  assert.equal(noBroker.code, 1);
  assert.match(noBroker.stderr, /broker\(s\) 7 are not live brokers of the cluster \(live: 1\)/);
  const health = await sluice("cluster", "health");
  assert.equal(health.code, 0, health.stdout);
  assert.match(health.stdout, /^CLUSTER HEALTH OVERVIEW\n=+\nHealthy: +true\n/);
  assert.match(health.stdout, /^Leaderless partitions \(0\): +\[\]$/m);
});
