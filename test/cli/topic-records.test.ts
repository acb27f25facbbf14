/**
 * `sluice topic`, `sluice produce` and `sluice consume` run as child processes against one
 * real node: topics created, described, altered, grown and deleted, the refusals Kafka's tools
 * report (an existing topic, a missing one, a shrinking partition count) printed by name with a
 * non-zero exit, and keyed records produced from standard input and consumed back.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { SluiceProcess, SLUICE, withDeadline } from "../clients/sluice-process.js";
import { COMMAND_DEADLINE_MS, lines, runSluice, type Outcome } from "./run-sluice.js";

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create();
  await node.start();
});

after(async () => {
  await node.destroy();
});

const sluice = runSluice;

/** `sluice topic SUBCOMMAND ... --bootstrap-server` the node. */
function topic(subcommand: string, ...args: string[]): Promise<Outcome> {
  return sluice(["topic", subcommand, "--bootstrap-server", node.bootstrap, ...args]);
}

/** `sluice consume NAME ... --bootstrap-server` the node. */
function consume(name: string, ...args: string[]): Promise<Outcome> {
  return sluice(["consume", name, "--bootstrap-server", node.bootstrap, ...args]);
}

test("create, an existing topic refused by name, and --if-not-exists", async () => {
  const created = await topic("create", "--topic", "orders", "--partitions", "3");
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout, "Created topic orders.\n");
  const again = await topic("create", "--topic", "orders", "--partitions", "3");
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^Error while executing topic command : TOPIC_ALREADY_EXISTS: /);
  const tolerated = await topic("create", "--topic", "orders", "--if-not-exists");
  assert.equal(tolerated.code, 0, tolerated.stderr);
  assert.equal(tolerated.stdout, "");
  const listed = await topic("list");
  assert.ok(lines(listed.stdout).includes("orders"), listed.stdout);
});

test("describe prints partitions with leader, replicas and ISR, and configs", async () => {
  const args = ["--topic", "described", "--partitions", "2", "--config", "retention.ms=3600000"];
  assert.equal((await topic("create", ...args)).code, 0);
  const described = await topic("describe", "--topic", "described");
  assert.equal(described.code, 0, described.stderr);
  const [summary, ...partitions] = lines(described.stdout);
  const summaryFields = "PartitionCount: 2\tReplicationFactor: 1\tConfigs: ";
  assert.match(summary ?? "", /^Topic: described\tTopicId: \S+\t/);
  assert.ok(summary?.includes(summaryFields), summary);
  assert.match(summary ?? "", /Configs: (.*,)?retention\.ms=3600000(,|$)/);
  const replicas = "Leader: 1\tReplicas: 1\tIsr: 1\tElr: N/A\tLastKnownElr: N/A";
  assert.deepEqual(partitions, [
    `\tTopic: described\tPartition: 0\t${replicas}`,
    `\tTopic: described\tPartition: 1\t${replicas}`,
  ]);
  const missing = await topic("describe", "--topic", "no-such-topic");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /UNKNOWN_TOPIC_OR_PARTITION/);
  assert.equal((await topic("describe", "--topic", "no-such-topic", "--if-exists")).code, 0);
});

test("alter sets and deletes configs; add-partitions grows a topic, never shrinks it", async () => {
  assert.equal((await topic("create", "--topic", "altered", "--partitions", "1")).code, 0);
  const altered = await topic("alter", "--topic", "altered", "--config", "retention.ms=7200000");
  assert.equal(altered.code, 0, altered.stderr);
  assert.equal(altered.stdout, "Completed updating config for topic altered.\n");
  assert.match((await topic("describe", "--topic", "altered")).stdout, /retention\.ms=7200000/);
  assert.equal(
    (await topic("alter", "--topic", "altered", "--delete-config", "retention.ms")).code,
    0,
  );
  assert.doesNotMatch((await topic("describe", "--topic", "altered")).stdout, /retention\.ms=/);
  const grown = await topic("add-partitions", "--topic", "altered", "--partitions", "3");
  assert.equal(grown.code, 0, grown.stderr);
  const viaAlter = await topic("alter", "--topic", "altered", "--partitions", "4");
  assert.equal(viaAlter.code, 0, viaAlter.stderr);
  assert.match((await topic("describe", "--topic", "altered")).stdout, /PartitionCount: 4\t/);
  const shrunk = await topic("add-partitions", "--topic", "altered", "--partitions", "2");
  assert.equal(shrunk.code, 1);
  assert.match(shrunk.stderr, /INVALID_PARTITIONS/);
  const unknownConfig = await topic("alter", "--topic", "altered", "--config", "no.such.config=1");
  assert.equal(unknownConfig.code, 1);
  assert.match(unknownConfig.stderr, /INVALID_CONFIG/);
});

test("delete removes a topic; a missing one is refused unless --if-exists", async () => {
  assert.equal((await topic("create", "--topic", "doomed")).code, 0);
  const deleted = await topic("delete", "--topic", "doomed");
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.ok(!lines((await topic("list")).stdout).includes("doomed"));
  const again = await topic("delete", "--topic", "doomed");
  assert.equal(again.code, 1);
  assert.match(again.stderr, /UNKNOWN_TOPIC_OR_PARTITION/);
  assert.equal((await topic("delete", "--topic", "doomed", "--if-exists")).code, 0);
});

test("keyed records produced from standard input are consumed back with their keys", async () => {
  assert.equal((await topic("create", "--topic", "keyed", "--partitions", "3")).code, 0);
  const records = Array.from({ length: 30 }, (_, index) => `key-${index % 5}:value-${index}`);
  const produced = await sluice(
    [
      "produce",
      "keyed",
      "--bootstrap-server",
      node.bootstrap,
      "--property",
      "parse.key=true",
    ].concat(["--property", "key.separator=:", "--compression", "gzip"]),
    `${records.join("\n")}\n`,
  );
  assert.equal(produced.code, 0, produced.stderr);
  const consumeArgs = [
    "--from-beginning",
    "--max-messages=30",
    "--property=print.key=true",
    "--property=print.partition=true",
  ];
  const consumed = await consume("keyed", ...consumeArgs);
  assert.equal(consumed.code, 0, consumed.stderr);
  assert.equal(consumed.stderr, "Processed a total of 30 messages\n");
  const got = lines(consumed.stdout).map((line) => line.split("\t"));
  assert.deepEqual(got.map(([, key, value]) => `${key}:${value}`).sort(), [...records].sort());
  // One key, one partition, and in the order produced within it.
  for (let key = 0; key < 5; key++) {
    const ofKey = got.filter(([, name]) => name === `key-${key}`);
    assert.equal(new Set(ofKey.map(([partition]) => partition)).size, 1, `key-${key}`);
    const order = ofKey.map(([, , value]) => Number(value?.replace("value-", "")));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
    );
  }
});

test("consume starts at --offset of a --partition and stops after --max-messages", async () => {
  assert.equal((await topic("create", "--topic", "offsets", "--partitions", "1")).code, 0);
  const input = "zero\none\ntwo\nthree\n";
  const produce = ["produce", "offsets", "--bootstrap-server", node.bootstrap, "--partition", "0"];
  assert.equal((await sluice(produce, input)).code, 0);
  const consumeArgs = [
    "--partition=0",
    "--offset=2",
    "--max-messages=2",
    "--property=print.offset=true",
  ];
  const consumed = await consume("offsets", ...consumeArgs);
  assert.equal(consumed.code, 0, consumed.stderr);
  assert.equal(consumed.stdout, "Offset:2\ttwo\nOffset:3\tthree\n");
  const noPartition = await sluice(["consume", "offsets", "--offset", "2"]);
  assert.equal(noPartition.code, 2);
  assert.match(noPartition.stderr, /The partition is required when offset is specified\./);
});

test("consume --group resumes after the offsets it committed", async () => {
  assert.equal((await topic("create", "--topic", "grouped", "--partitions", "2")).code, 0);
  const produce = ["produce", "grouped", "--bootstrap-server", node.bootstrap];
  assert.equal((await sluice(produce, "a\nb\nc\n")).code, 0);
  const consume = ["consume", "grouped", "--bootstrap-server", node.bootstrap, "--group", "g"];
  const first = await sluice([...consume, "--from-beginning", "--max-messages", "3"]);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(lines(first.stdout).sort(), ["a", "b", "c"]);
  assert.equal((await sluice(produce, "d\n")).code, 0);
  // --from-beginning only applies where the group has no offset.
  const second = await sluice([...consume, "--from-beginning", "--max-messages", "1"]);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, "d\n");
});

test("producing to a topic that does not exist fails by name", async () => {
  const produced = await sluice(["produce", "absent", "--bootstrap-server", node.bootstrap], "x\n");
  assert.equal(produced.code, 1);
  assert.match(produced.stderr, /^UNKNOWN_TOPIC_OR_PARTITION: /);
  const noSeparator = await sluice(
    ["produce", "keyed", "--bootstrap-server", node.bootstrap, "--key-separator", ":"],
    "no separator here\n",
  );
  assert.equal(noSeparator.code, 1);
  assert.match(noSeparator.stderr, /No key separator found on line number 1/);
});

test("each command explains itself with --help", async () => {
  for (const args of [
    ["topic", "--help"],
    ["produce", "--help"],
    ["consume", "--help"],
  ]) {
    const help = await sluice(args);
    assert.equal(help.code, 0, args.join(" "));
    assert.match(help.stdout, /^usage: sluice /, args.join(" "));
  }
});

test("consume prints the timestamp under the topic's timestamp type", async () => {
  const config = "message.timestamp.type=LogAppendTime";
  assert.equal((await topic("create", "--topic", "stamped", "--config", config)).code, 0);
  const produce = ["produce", "stamped", "--bootstrap-server", node.bootstrap, "--acks", "1"];
  const produced = await sluice([...produce, "--compression", "zstd"], "v\n");
  assert.equal(produced.code, 0, produced.stderr);
  const consumeArgs = ["--from-beginning", "--max-messages=1", "--property=print.timestamp=true"];
  const consumed = await consume("stamped", ...consumeArgs);
  assert.equal(consumed.code, 0, consumed.stderr);
  assert.match(consumed.stdout, /^LogAppendTime:\d+\tv\n$/);
});

test("a consumer stopped with SIGINT commits what it printed and reports its count", async () => {
  assert.equal((await topic("create", "--topic", "interrupted")).code, 0);
  const produce = ["produce", "interrupted", "--bootstrap-server", node.bootstrap];
  assert.equal((await sluice(produce, "first\nsecond\n")).code, 0);
  const args = ["interrupted", "--bootstrap-server", node.bootstrap, "--group", "stopped"];
  const child = spawn(process.execPath, [SLUICE, "consume", ...args, "--from-beginning"]);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const printed = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout === "first\nsecond\n") resolve();
      }),
    );
    await withDeadline(printed, COMMAND_DEADLINE_MS, () => `printed ${stdout}, ${stderr}`);
    child.kill("SIGINT");
    assert.equal(await withDeadline(exited, COMMAND_DEADLINE_MS, () => stderr), 0);
  } finally {
    child.kill("SIGKILL");
  }
  assert.equal(stderr, "Processed a total of 2 messages\n");
  assert.equal((await sluice(produce, "third\n")).code, 0);
  const resumed = await consume("interrupted", "--group=stopped", "--max-messages=1");
  assert.equal(resumed.stdout, "third\n", resumed.stderr);
});
