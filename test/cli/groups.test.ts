/**
 * `sluice groups` run as a child process against one real node, with a group made by kafkajs:
 * listed, described per partition (committed offset, log end, lag, member), its offsets reset
 * (refused while members are active, a dry run by default, committed with --execute), and
 * deleted.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { Kafka, logLevel, type Admin, type Consumer } from "kafkajs";
import { SluiceProcess, withDeadline } from "../clients/sluice-process.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

const TOPIC = "group-orders";
const GROUP = "cli-group";
const CLIENT_ID = "groups-cli-test";

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;
let consumer: Consumer | undefined;

interface OffsetRow {
  readonly GROUP: string;
  readonly TOPIC: string | null;
  readonly PARTITION: number | null;
  readonly "CURRENT-OFFSET": number | null;
  readonly "LOG-END-OFFSET": number | null;
  readonly LAG: number | null;
  readonly "CONSUMER-ID": string | null;
  readonly HOST: string | null;
  readonly "CLIENT-ID": string | null;
}

before(async () => {
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
  kafka = new Kafka({ clientId: CLIENT_ID, brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const messages = Array.from({ length: 10 }, (_, index) => ({ key: `k${index}`, value: "v" }));
  await producer.send({ topic: TOPIC, acks: -1, messages });
  await producer.disconnect();
});

after(async () => {
  await consumer?.disconnect();
  await admin?.disconnect();
  await node.destroy();
});

function groups(subcommand: string, ...args: string[]): Promise<Outcome> {
  return runSluice(["groups", subcommand, "--bootstrap-server", node.bootstrap, ...args]);
}

async function describedRows(): Promise<OffsetRow[]> {
  const described = await groups("describe", "--group", GROUP, "--json");
  assert.equal(described.code, 0, described.stderr);
  return json<OffsetRow[]>(described);
}

/** Waits until the group committed every one of the 10 records. */
async function waitForCommits(): Promise<void> {
  const committedAll = async (): Promise<void> => {
    for (;;) {
      const offsets = await admin.fetchOffsets({ groupId: GROUP, topics: [TOPIC] });
      const total = offsets[0]?.partitions.reduce((sum, entry) => sum + Number(entry.offset), 0);
      if (total === 10) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await withDeadline(committedAll(), 60_000, () => "the group did not commit all 10 records");
}

test("an active kafkajs group is listed and described per partition with its member", async () => {
  consumer = kafka.consumer({ groupId: GROUP, sessionTimeout: 10_000 });
  await consumer.connect();
  await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
  void consumer.run({ autoCommitThreshold: 1, eachMessage: async () => {} });
  await waitForCommits();

  const listed = await groups("list");
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^GROUP +TYPE +STATE\n/);
  assert.ok(lines(listed.stdout).some((line) => /^cli-group +classic +Stable$/.test(line)));
  const filtered = await groups("list", "--state", "Empty", "--json");
  assert.deepEqual(json(filtered), []);

  const rows = await describedRows();
  assert.deepEqual(
    rows.map((row) => [row.TOPIC, row.PARTITION, row.LAG, row["CLIENT-ID"]]),
    [
      [TOPIC, 0, 0, CLIENT_ID],
      [TOPIC, 1, 0, CLIENT_ID],
    ],
  );
  assert.equal(
    rows.reduce((sum, row) => sum + (row["CURRENT-OFFSET"] ?? 0), 0),
    10,
  );
  assert.ok(rows.every((row) => row["CURRENT-OFFSET"] === row["LOG-END-OFFSET"]));
  assert.match(rows[0]?.["CONSUMER-ID"] ?? "", new RegExp(`^${CLIENT_ID}-`));
  assert.match(rows[0]?.HOST ?? "", /127\.0\.0\.1/);

  const table = await groups("describe", "--group", GROUP);
  assert.equal(table.code, 0, table.stderr);
  const [header, ...body] = lines(table.stdout);
  assert.match(
    header ?? "",
    /^GROUP +TOPIC +PARTITION +CURRENT-OFFSET +LOG-END-OFFSET +LAG +CONSUMER-ID +HOST +CLIENT-ID$/,
  );
  assert.equal(body.length, 2);
  const members = await groups("describe", "--group", GROUP, "--members");
  assert.match(
    lines(members.stdout)[1] ?? "",
    new RegExp(`^cli-group +${CLIENT_ID}-\\S+ +- +\\S+ +${CLIENT_ID} +2$`),
  );
  const state = await groups("describe", "--group", GROUP, "--state");
  assert.match(lines(state.stdout)[1] ?? "", /^cli-group +127\.0\.0\.1:\d+ \(1\) +\S+ +Stable +1$/);
});

test("reset-offsets and delete are refused while the group has active members", async () => {
  const reset = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--topic",
    TOPIC,
    "--to-earliest",
    "--execute",
  );
  assert.equal(reset.code, 1);
  assert.match(
    reset.stderr,
    /group 'cli-group' is inactive, but the current state is Stable\. Stop/,
  );
  const deleted = await groups("delete", "--group", GROUP);
  assert.equal(deleted.code, 1);
  assert.match(deleted.stderr, /Group 'cli-group' could not be deleted due to: NON_EMPTY_GROUP/);
});

test("a reset of an empty group's offsets is a dry run without --execute", async () => {
  await consumer?.disconnect();
  consumer = undefined;
  const empty = await groups("describe", "--group", GROUP);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stderr, /Consumer group 'cli-group' has no active members\./);
  const before = await describedRows();
  assert.ok(before.every((row) => row["CONSUMER-ID"] === null));

  const dryRun = await groups("reset-offsets", "--group", GROUP, "--topic", TOPIC, "--to-earliest");
  assert.equal(dryRun.code, 0, dryRun.stderr);
  assert.match(dryRun.stderr, /Dry run: no offset was changed\. Add --execute/);
  assert.deepEqual(
    lines(dryRun.stdout)
      .slice(1)
      .map((line) => line.split(/ +/).slice(2)),
    [
      ["0", "0"],
      ["1", "0"],
    ],
  );
  assert.deepEqual(await describedRows(), before);
});

test("each reset scenario commits the offsets it names with --execute", async () => {
  const toOffset = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--topic",
    `${TOPIC}:0`,
    "--to-offset",
    "1",
    "--execute",
  );
  assert.equal(toOffset.code, 0, toOffset.stderr);
  assert.equal((await describedRows())[0]?.["CURRENT-OFFSET"], 1);
  const shifted = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--topic",
    `${TOPIC}:0`,
    "--shift-by",
    "-5",
    "--execute",
  );
  assert.equal(shifted.code, 0, shifted.stderr);
  assert.match(shifted.stderr, /New offset \(-4\) is lower than earliest offset/);
  const afterShift = await describedRows();
  assert.equal(afterShift[0]?.["CURRENT-OFFSET"], 0);
  assert.equal(afterShift[0]?.LAG, afterShift[0]?.["LOG-END-OFFSET"]);

  const latest = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--all-topics",
    "--to-latest",
    "--execute",
    "--json",
  );
  assert.equal(latest.code, 0, latest.stderr);
  const newOffsets = json<{ "NEW-OFFSET": number }[]>(latest).map((row) => row["NEW-OFFSET"]);
  assert.equal(
    newOffsets.reduce((sum, offset) => sum + offset, 0),
    10,
  );
  const early = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--all-topics",
    "--to-datetime",
    "2000-01-01T00:00:00.000Z",
    "--execute",
    "--json",
  );
  assert.equal(early.code, 0, early.stderr);
  assert.deepEqual(
    json<{ "NEW-OFFSET": number }[]>(early).map((row) => row["NEW-OFFSET"]),
    [0, 0],
  );
  assert.ok((await describedRows()).every((row) => row["CURRENT-OFFSET"] === 0));
});

test("refusals say what to do, and an empty group is deleted", async () => {
  const missing = await groups("describe", "--group", "no-such-group");
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /Consumer group 'no-such-group' does not exist \(sluice groups list/,
  );
  const noScenario = await groups("reset-offsets", "--group", GROUP, "--topic", TOPIC);
  assert.equal(noScenario.code, 1);
  assert.match(noScenario.stderr, /needs exactly one of --to-earliest, --to-latest/);
  const badDate = await groups(
    "reset-offsets",
    "--group",
    GROUP,
    "--topic",
    TOPIC,
    "--to-datetime",
    "yesterday",
  );
  assert.match(badDate.stderr, /is not YYYY-MM-DDTHH:mm:SS\.sss/);
  const unknown = await groups("frobnicate");
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown groups command "frobnicate"/);
  const help = await runSluice(["groups", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /reset-offsets +--group ID/);

  const deleted = await groups("delete", "--group", GROUP);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(
    deleted.stdout,
    "Deletion of requested consumer groups ('cli-group') was successful.\n",
  );
  assert.ok(!(await groups("list")).stdout.includes(GROUP));
});
