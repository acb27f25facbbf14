/**
 * The administration commands that need several nodes, run as child processes against three
 * real combined nodes: `quorum describe` asked of any controller finds the leader, `cluster
 * health` reports a stopped broker and the partitions it leaves under-replicated, `elect-leaders`
 * moves leadership back to the preferred replica, and `reassign` generates, executes (waiting,
 * with progress), verifies and cancels a move of partitions between brokers.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killAll } from "../cluster/cluster-process.js";
import {
  activeController,
  awaitPartitions,
  bootstrapServers,
  createAssignedTopic,
  describeTopic,
  expectBrokers,
  startThreeNodes,
  type Member,
} from "../cluster/three-nodes.js";
import { json, lines, runSluice, type Outcome } from "./run-sluice.js";

let members: Member[];
let files: string;

before(async () => {
  // No automatic preferred-leader elections: the test makes its own.
  members = await startThreeNodes("cli-admin", { "auto.leader.rebalance.enable": "false" });
  await expectBrokers(members[0] as Member, [1, 2, 3]);
  files = mkdtempSync(join(tmpdir(), "sluice-cli-admin-"));
});

after(async () => {
  await killAll();
  rmSync(files, { recursive: true, force: true });
});

function sluice(...args: string[]): Promise<Outcome> {
  return runSluice([...args, "--bootstrap-server", bootstrapServers(members)]);
}

function controllerOf(member: Member): string {
  return `${member.controller.host}:${member.controller.port}`;
}

test("quorum describe asked of any controller answers with the leader's view", async () => {
  const leaderId = await activeController(members[0] as Member);
  assert.ok(leaderId !== undefined);
  for (const member of members) {
    const described = await runSluice([
      "quorum",
      "describe",
      "--bootstrap-controller",
      controllerOf(member),
    ]);
    assert.equal(described.code, 0, described.stderr);
    assert.equal(lines(described.stdout)[1], `LeaderId:             ${leaderId}`);
    if (member.nodeId === leaderId) assert.equal(described.stderr, "");
    else {
      assert.match(described.stderr, new RegExp(`is not the leader; controller ${leaderId} is\\n`));
      const leader = members.find((candidate) => candidate.nodeId === leaderId) as Member;
      assert.match(
        described.stderr,
        new RegExp(`Answered by the leader at ${controllerOf(leader)}\\.`),
      );
    }
  }
});

test("cluster health reports a stopped broker; elect-leaders moves leadership back", async () => {
  const [first, second] = members as [Member, Member, Member];
  await createAssignedTopic(first, "elected", [[1, 2, 3]]);
  await awaitPartitions(members, "elected", (p) => p.get(0)?.isr.length === 3, "ISR [1,2,3]");
  const controllers = members.map(controllerOf).join(",");
  const healthy = await sluice(
    "cluster",
    "health",
    "--bootstrap-controller",
    controllers,
    "--json",
  );
  assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
  const overview = json<{ healthy: boolean; controllerId: number; allNodes: number[] }>(healthy);
  assert.deepEqual([overview.healthy, overview.allNodes], [true, [1, 2, 3]]);
  assert.equal(overview.controllerId, await activeController(second));

  await first.node.stop("SIGTERM");
  await awaitPartitions(members, "elected", (p) => p.get(0)?.isr.join() === "2,3", "ISR [2,3]");
  const sick = await sluice("cluster", "health");
  assert.equal(sick.code, 1, sick.stdout + sick.stderr);
  assert.match(sick.stdout, /^Healthy: +false$/m);
  assert.match(sick.stdout, /^Unhealthy reasons: +\[nodes_down under_replicated_partitions\]$/m);
  assert.match(sick.stdout, /^Nodes down: +\[1\]$/m);
  assert.match(sick.stdout, /^Under-replicated partitions \(\d+\): +\[.*elected\/0.*\]$/m);

  await first.node.start();
  await awaitPartitions(members, "elected", (p) => p.get(0)?.isr.length === 3, "1 back in the ISR");
  assert.notEqual((await describeTopic(second, "elected")).partitions.get(0)?.leader, 1);
  const elected = await sluice(
    "elect-leaders",
    "--election-type",
    "preferred",
    "--topic",
    "elected",
    "--partition",
    "0",
  );
  assert.equal(elected.code, 0, elected.stderr);
  assert.match(lines(elected.stdout)[1] ?? "", /^elected +0 +ELECTED$/);
  await awaitPartitions(members, "elected", (p) => p.get(0)?.leader === 1, "leader 1");
  const again = await sluice(
    "elect-leaders",
    "--election-type",
    "PREFERRED",
    "--topic",
    "elected",
    "--json",
  );
  assert.deepEqual(json(again), [
    { TOPIC: "elected", PARTITION: 0, RESULT: "ELECTION_NOT_NEEDED" },
  ]);
  // An unclean election is not needed where a leader is live; the file names the partition.
  const electionFile = join(files, "election.json");
  writeFileSync(electionFile, JSON.stringify({ partitions: [{ topic: "elected", partition: 0 }] }));
  const unclean = await sluice(
    "elect-leaders",
    "--election-type",
    "unclean",
    "--path-to-json-file",
    electionFile,
  );
  assert.equal(unclean.code, 0, unclean.stderr);
  assert.match(lines(unclean.stdout)[1] ?? "", /^elected +0 +ELECTION_NOT_NEEDED$/);
  const missing = await sluice("elect-leaders", "--election-type", "preferred");
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /One and only one of the following options is required: --topic/);
});

test("reassign generates, executes with progress, verifies and cancels a move", async () => {
  await createAssignedTopic(members[0] as Member, "moved", [[1], [1], [1]]);
  const planFile = await generateMovePlan();
  const executed = await executeWaiting(planFile);
  const partitions = (await describeTopic(members[1] as Member, "moved")).partitions;
  assert.deepEqual(
    [0, 1, 2].map((index) => partitions.get(index)?.replicas),
    [[2], [3], [2]],
  );

  const verified = await sluice(
    "reassign",
    "verify",
    "--reassignment-json-file",
    planFile,
    "--json",
  );
  assert.equal(verified.code, 0, verified.stderr);
  assert.ok(json<{ STATUS: string }[]>(verified).every((row) => row.STATUS === "completed"));
  const cancelled = await sluice("reassign", "cancel", "--reassignment-json-file", planFile);
  assert.equal(cancelled.stdout, "None of the specified partition reassignments are active.\n");
  assert.equal((await sluice("reassign", "list")).stdout, "No partition reassignments found.\n");

  await rollBackAsJson(lines(executed.stdout)[1] ?? "");
  await expectPlanToUnknownBrokerRefused();
  const noFile = await sluice(
    "reassign",
    "verify",
    "--reassignment-json-file",
    join(files, "none.json"),
  );
  assert.match(noFile.stderr, /none\.json does not exist/);
});

/** `reassign generate` moves the three partitions of "moved" to brokers 2 and 3: the plan file. */
async function generateMovePlan(): Promise<string> {
  const topicsFile = join(files, "topics.json");
  writeFileSync(topicsFile, JSON.stringify({ version: 1, topics: [{ topic: "moved" }] }));
  const generated = await sluice(
    "reassign",
    "generate",
    "--topics-to-move-json-file",
    topicsFile,
    "--broker-list",
    "2,3",
  );
  assert.equal(generated.code, 0, generated.stderr);
  const [currentTitle, current, proposedTitle, proposed] = lines(generated.stdout);
  assert.equal(currentTitle, "Current partition replica assignment");
  assert.match(current ?? "", /"replicas":\[1\],"log_dirs":\["any"\]/);
  assert.equal(proposedTitle, "Proposed partition reassignment configuration");
  const plan = JSON.parse(proposed ?? "") as { partitions: { replicas: number[] }[] };
  assert.deepEqual(
    plan.partitions.map((entry) => entry.replicas),
    [[2], [3], [2]],
  );
  const planFile = join(files, "plan.json");
  writeFileSync(planFile, proposed ?? "");
  return planFile;
}

/** `reassign execute --wait` of the plan: the rollback plan, the start, progress and the end. */
async function executeWaiting(planFile: string): Promise<Outcome> {
  const executed = await sluice(
    "reassign",
    "execute",
    "--reassignment-json-file",
    planFile,
    "--wait",
  );
  assert.equal(executed.code, 0, executed.stderr);
  assert.match(
    executed.stdout,
    /Save this to use as the --reassignment-json-file option during rollback\n/,
  );
  assert.match(
    executed.stdout,
    /Successfully started partition reassignments for moved-0,moved-1,moved-2\n/,
  );
  assert.match(executed.stdout, /Reassigned \d of 3 partitions\n/);
  assert.match(executed.stdout, /All 3 partition reassignments completed\.\n$/);
  return executed;
}

/** The rollback plan execute printed moves the partitions back; --json prints one document. */
async function rollBackAsJson(rollbackPlan: string): Promise<void> {
  const rollbackFile = join(files, "rollback.json");
  writeFileSync(rollbackFile, rollbackPlan);
  const rolledBack = await sluice(
    "reassign",
    "execute",
    "--reassignment-json-file",
    rollbackFile,
    "--wait",
    "--json",
  );
  assert.equal(rolledBack.code, 0, rolledBack.stderr);
  const document = json<{
    current: { partitions: { replicas: number[] }[] };
    started: string[];
    outcome: { STATUS: string; REPLICAS: string }[];
  }>(rolledBack);
  assert.deepEqual(
    document.current.partitions.map((entry) => entry.replicas),
    [[2], [3], [2]],
  );
  assert.deepEqual(document.started, ["moved-0", "moved-1", "moved-2"]);
  assert.deepEqual(
    document.outcome.map((row) => [row.REPLICAS, row.STATUS]),
    [
      ["1", "completed"],
      ["1", "completed"],
      ["1", "completed"],
    ],
  );
}

/** A plan naming broker 9 does not start, and verify reports it not running. */
async function expectPlanToUnknownBrokerRefused(): Promise<void> {
  const planFile = join(files, "plan.json");
  writeFileSync(
    planFile,
    JSON.stringify({ version: 1, partitions: [{ topic: "moved", partition: 0, replicas: [9] }] }),
  );
  const unknownBroker = await sluice("reassign", "execute", "--reassignment-json-file", planFile);
  assert.equal(unknownBroker.code, 1);
  assert.match(unknownBroker.stderr, /^Error: 1 partition reassignment\(s\) could not start:\n/);
  assert.match(unknownBroker.stderr, /moved-0: INVALID_REPLICA_ASSIGNMENT: .*broker 9/);
  const notVerified = await sluice("reassign", "verify", "--reassignment-json-file", planFile);
  assert.equal(notVerified.code, 1);
  assert.match(lines(notVerified.stdout)[1] ?? "", /^moved +0 +9 +1 +not running$/);
}
