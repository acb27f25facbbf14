/**
 * The commands of the partition scenario scripts (the script language is ../script.ts); see
 * README.md in this folder. After each command the runner prints every broker line and the
 * controller line that changed.
 */
import assert from "node:assert/strict";
import { checkFacts, optionsOf, type ScenarioRunner } from "../script.js";
import { ScenarioClients } from "./clients.js";
import { PartitionCluster } from "./cluster.js";
import { describeRegistration } from "./controller.js";
import {
  alterPartition,
  brokerConfigRecords,
  configRecords,
  elect,
  isrChange,
  topicRecords,
} from "./metadata-commands.js";
import type { Link } from "./network.js";
import { brokerFacts, describeBroker, logOf, metricFacts } from "./render.js";
import { ScenarioWorld } from "./world.js";

/** Kafka's defaults for the settings `cluster` may change. */
const DEFAULT_LAG_MS = 30_000;
const DEFAULT_FETCH_BYTES = 1_048_576;
const DEFAULT_PRODUCE_TIMEOUT_MS = 30_000;
/** Delivery passes `replicate` makes at most before it fails. */
const REPLICATE_PASSES_MAX = 30;

export class PartitionScriptRunner implements ScenarioRunner {
  private cluster: PartitionCluster | undefined;
  private clients: ScenarioClients | undefined;
  private commands: Map<string, Command> | undefined;

  async run(line: string): Promise<string[]> {
    const [command = "", ...args] = line.trim().split(/\s+/);
    if (command === "cluster") return this.start(args);
    const cluster = this.cluster;
    const clients = this.clients;
    assert.ok(cluster !== undefined && clients !== undefined, "a scenario starts with `cluster`");
    cluster.world.lines = [];
    const before = linesOf(cluster);
    const run = this.commands?.get(command);
    assert.ok(run !== undefined, `unknown scenario command ${command}`);
    await run(args);
    clients.checkWaits();
    if (command !== "state") {
      const after = linesOf(cluster);
      cluster.world.lines.push(...after.filter((shown, index) => before[index] !== shown));
    }
    return cluster.world.lines;
  }

  private async start(args: string[]): Promise<string[]> {
    const options = optionsOf(args);
    const world = new ScenarioWorld(Number(options.get("seed") ?? "1"));
    this.cluster = await PartitionCluster.start(world, Number(options.get("brokers") ?? "3"), {
      replicaLagTimeMaxMs: Number(options.get("lag") ?? DEFAULT_LAG_MS),
      replicaFetchMaxBytes: Number(options.get("fetch-bytes") ?? DEFAULT_FETCH_BYTES),
    });
    this.clients = new ScenarioClients(this.cluster);
    this.commands = commandsOf(this.cluster, this.clients);
    return world.lines;
  }
}

/** One command: its arguments after the command word. */
type Command = (args: string[]) => Promise<void> | void;

/** The commands of a scenario, by name (`cluster` starts one and is the runner's). */
function commandsOf(cluster: PartitionCluster, clients: ScenarioClients): Map<string, Command> {
  const { world, network, controller } = cluster;
  const id = (args: string[]) => Number(args[0]);
  const deliver = async (link: Link) => {
    await network.deliver(link, { isQuiet: false });
  };
  return new Map<string, Command>([
    ["create-topic", (args) => cluster.commit(topicRecords(optionsOf(args)))],
    ["config", (args) => cluster.commit(configRecords(optionsOf(args)))],
    ["broker-config", (args) => cluster.commit(brokerConfigRecords(args[0], args.slice(1)))],
    ["elect", (args) => elect(cluster, args)],
    ["set-isr", (args) => cluster.commit(isrChange(args[0]))],
    ["alter-partition", (args) => alterPartition(cluster, optionsOf(args))],
    ["pause-metadata", (args) => cluster.pauseMetadata(id(args))],
    ["catch-up", (args) => cluster.catchUp(id(args))],
    ["produce", (args) => clients.produce(id(args), produceOptions(args.slice(1)))],
    ["list-offsets", (args) => clients.listOffsets(id(args), listOffsetsOptions(args.slice(1)))],
    ["delete-records", (args) => clients.deleteRecords(id(args), Number(args[1]))],
    ["deliver", (args) => deliver(parseLink(args[0]))],
    ["drop", (args) => network.drop(parseLink(args[0]))],
    ["replicate", () => replicate(cluster)],
    ["pending", () => void world.lines.push(...network.pending(), ...controller.pending())],
    ["advance", (args) => advance(cluster, clients, Number(args[0]))],
    ["crash", (args) => cluster.crash(id(args))],
    ["stop", (args) => cluster.stop(id(args))],
    ["restart", (args) => cluster.restart(id(args), { isEmpty: args.includes("empty") })],
    ["flush", (args) => cluster.process(id(args)).flush()],
    ["checkpoint", (args) => cluster.process(id(args)).checkpoint()],
    ["state", () => void world.lines.push(...linesOf(cluster))],
    ["log", (args) => printLog(cluster, id(args))],
    ["check", (args) => check(cluster, args)],
  ]);
}

function produceOptions(args: string[]): Parameters<ScenarioClients["produce"]>[1] {
  const options = optionsOf(args);
  return {
    acks: options.get("acks") === "all" ? -1 : Number(options.get("acks") ?? "1"),
    timeoutMs: Number(options.get("timeout") ?? DEFAULT_PRODUCE_TIMEOUT_MS),
    values: args.filter((arg) => !arg.includes("=")),
  };
}

function listOffsetsOptions(args: string[]): Parameters<ScenarioClients["listOffsets"]>[1] {
  const isolation = optionsOf(args).get("isolation");
  return {
    timestamp: args[0] === "earliest" ? -2 : -1,
    isolation: isolation === "read_committed" ? "read_committed" : "read_uncommitted",
  };
}

/** The broker lines and the controller line, in a fixed order. */
function linesOf(cluster: PartitionCluster): string[] {
  return [
    ...cluster.brokerIds.map((id) => describeBroker(id, cluster.running(id))),
    describeRegistration(cluster.controller.partition),
  ];
}

async function printLog(cluster: PartitionCluster, id: number): Promise<void> {
  const partition = cluster.process(id).partition;
  const records = partition === undefined ? [] : await logOf(cluster.world, partition);
  cluster.world.print(`${id}: ${records.length === 0 ? "empty" : records.join(" ")}`);
}

/** Delivers every held request, pass after pass, until a pass changes nothing. */
async function replicate(cluster: PartitionCluster): Promise<void> {
  const shown = () => cluster.brokerIds.map((id) => describeBroker(id, cluster.running(id)));
  for (let pass = 0; pass < REPLICATE_PASSES_MAX; pass++) {
    const before = shown().join("\n");
    const printed = cluster.world.lines.length;
    const held = cluster.network.size;
    const effects = await cluster.network.deliver({}, { isQuiet: true });
    const isQuiet = effects === 0 && cluster.world.lines.length === printed;
    if (held === 0 || (isQuiet && shown().join("\n") === before)) return;
  }
  assert.fail(`replication did not settle in ${REPLICATE_PASSES_MAX} passes`);
}

/** Moves the clock, then runs each broker's ISR shrink check (Kafka's isr-expiration task). */
async function advance(cluster: PartitionCluster, clients: ScenarioClients, durationMs: number) {
  const { world } = cluster;
  world.print(`time ${world.nowMs + durationMs}`);
  await world.advance(durationMs);
  for (const id of cluster.brokerIds) {
    cluster.running(id)?.replicaManager.maybeShrinkIsrs(simulatedWallMs(world));
  }
  await world.settle();
  clients.checkWaits();
}

function simulatedWallMs(world: ScenarioWorld): number {
  return world.scheduler.clock.nowMs();
}

/** `<id>:<a>,<b>` or `a->b` style links: `2->1`, `*->1`, `2->*`, or everything. */
function parseLink(text: string | undefined): Link {
  if (text === undefined) return {};
  const [from = "*", to = "*"] = text.split("->");
  return {
    ...(from === "*" ? {} : { from: Number(from) }),
    ...(to === "*" ? {} : { to: Number(to) }),
  };
}

/** `check <id> <fact>=<value>...` or `check controller leader=… epoch=… isr=… elr=…`. */
async function check(cluster: PartitionCluster, args: string[]): Promise<void> {
  const expectations = args.slice(1);
  const subject = `${args[0]} at ${cluster.world.nowMs} ms`;
  if (args[0] === "controller") {
    const partition = cluster.controller.partition;
    const list = (ids: readonly number[] | undefined) =>
      ids === undefined || ids.length === 0 ? "-" : ids.join(",");
    const facts = {
      leader: String(partition?.leader ?? -1),
      epoch: String(partition?.leaderEpoch ?? -1),
      "partition-epoch": String(partition?.partitionEpoch ?? -1),
      isr: list(partition?.isr),
      elr: list(partition?.eligibleLeaderReplicas),
    };
    return checkFacts(facts, expectations, subject);
  }
  const id = Number(args[0]);
  const process = cluster.running(id);
  const facts = { ...brokerFacts(process), ...(process ? metricFacts(process) : {}) };
  const partition = process?.partition;
  if (expectations.some((expectation) => expectation.startsWith("log="))) {
    const records = partition === undefined ? [] : await logOf(cluster.world, partition);
    facts["log"] = records.length === 0 ? "-" : records.join(",");
  }
  checkFacts(facts, expectations, subject);
}
