/**
 * Runs one scenario: a cluster of three combined nodes, a topic of three partitions with
 * replication factor 3 and min.insync.replicas 2, a kcat producer per partition and a kafkajs
 * group of two members; the scenario's fault rounds until its time is up; then every fault is
 * healed, the recovery is timed, the clients stop, the partitions are read back and the
 * replicas' files compared, and the checkers judge the history.
 */
import { randomInt } from "node:crypto";
import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { check, type Anomaly } from "./checker.js";
import { Cluster } from "./cluster.js";
import { startConsumerGroup, type ConsumerGroup } from "./consumers.js";
import { History } from "./history.js";
import { startKcatProducer, type Producer } from "./producers.js";
import { compareReplicas, readPartition, type StoredRecord } from "./read-back.js";
import type { Scenario } from "./scenario.js";
import { cleanUp, sleep, waitFor, withTimeout } from "./system.js";

export const TOPIC = "chaos";
const PARTITIONS = 3;

export interface RunResult {
  readonly scenario: string;
  readonly seconds: number;
  readonly outsideFaultModel: string | null;
  readonly operations: { readonly invoked: number; readonly ok: number; readonly info: number };
  readonly polled: number;
  readonly faults: readonly string[];
  /** Milliseconds from healing the last fault to a full ISR and every producer acknowledged. */
  readonly recoveryMs: number | null;
  readonly anomalies: readonly Anomaly[];
  readonly historyPath: string;
}

export async function runScenario(
  scenario: Scenario,
  options: { readonly seconds: number; readonly outDir: string },
): Promise<RunResult> {
  const historyPath = join(options.outDir, `${scenario.name}-${Date.now()}.history.jsonl`);
  const history = new History(historyPath);
  const faults: string[] = [];
  let group: ConsumerGroup | undefined;
  try {
    const cluster = await Cluster.start({ nodes: 3, ...scenario.cluster });
    await createTopic(cluster.bootstrap());
    await cluster.awaitFullIsr(TOPIC, 60_000);
    const producers = Array.from({ length: PARTITIONS }, (_, partition) =>
      startKcatProducer(history, {
        bootstrap: cluster.bootstrap(),
        topic: TOPIC,
        partition,
        intervalMs: 10,
        logPath: historyPath.replace(/\.history\.jsonl$/, `.kcat-${partition}.log`),
      }),
    );
    group = await startConsumerGroup(history, {
      bootstrap: cluster.bootstrap(),
      topic: TOPIC,
      members: 2,
    });
    await sleep(2000);
    const until = performance.now() + options.seconds * 1000;
    const context = {
      cluster,
      topic: TOPIC,
      history,
      note: (fault: string, detail: string) => {
        faults.push(`${fault} ${detail}`);
        history.add({ process: "nemesis", type: "info", f: fault, error: detail });
      },
      healed: (detail: string) => {
        history.add({ process: "nemesis", type: "info", f: "heal", error: detail });
      },
      pick: (bound: number) => randomInt(bound),
      hold: (ms: number) => sleep(Math.max(0, Math.min(ms, until - performance.now() + 1000))),
    };
    while (performance.now() < until) await scenario.round(context);
    const recoveryMs = await recover(cluster, producers);
    const anomalies = await finish(cluster, producers, group, history);
    if (anomalies.length > 0) keepEvidence(cluster, historyPath.replace(/\.history\.jsonl$/, ""));
    return summary(scenario, options.seconds, history, {
      faults,
      recoveryMs,
      anomalies,
      historyPath,
    });
  } catch (error) {
    process.stderr.write(`chaos: ${scenario.name} failed: ${String(error)}\n`);
    const anomalies: Anomaly[] = [{ kind: "harness", partition: -1, detail: String(error) }];
    return summary(scenario, options.seconds, history, {
      faults,
      recoveryMs: null,
      anomalies,
      historyPath,
    });
  } finally {
    // The consumers first, while the brokers still run: a kafkajs fetcher whose brokers are gone
    // can loop without yielding to timers, which would starve the clean-up and the time bound.
    await stopConsumers(group);
    await cleanUp();
  }
}

async function stopConsumers(group: ConsumerGroup | undefined): Promise<void> {
  if (group === undefined) return;
  await withTimeout(group.stop(), 10_000, "consumer group").catch((error: unknown) => {
    process.stderr.write(`chaos: stopping the consumers: ${String(error)}\n`);
  });
}

async function createTopic(bootstrap: string): Promise<void> {
  const kafka = new Kafka({ brokers: bootstrap.split(","), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: [
        {
          topic: TOPIC,
          numPartitions: PARTITIONS,
          replicationFactor: 3,
          configEntries: [{ name: "min.insync.replicas", value: "2" }],
        },
      ],
      waitForLeaders: true,
    });
  } finally {
    await admin.disconnect();
  }
}

/** Heals everything; resolves to how long the cluster took to serve every producer again. */
async function recover(cluster: Cluster, producers: readonly Producer[]): Promise<number> {
  const started = performance.now();
  await cluster.network.heal();
  for (const node of cluster.nodes) {
    if (node.isPaused) node.resume();
    if (!node.isRunning) await node.start(false);
  }
  const counts = producers.map((producer) => producer.acknowledged());
  await cluster.awaitFullIsr(TOPIC, 90_000);
  await waitFor(
    "every producer acknowledged again",
    async () => (producers.every((p, i) => p.acknowledged() > (counts[i] ?? 0)) ? true : undefined),
    90_000,
  );
  return Math.round(performance.now() - started);
}

/** Stops the clients, reads back, lets the consumers drain, compares replicas, checks. */
async function finish(
  cluster: Cluster,
  producers: readonly Producer[],
  group: ConsumerGroup,
  history: History,
): Promise<Anomaly[]> {
  await sleep(1000);
  for (const producer of producers) await producer.stop();
  const stored = new Map<number, StoredRecord[]>();
  for (let partition = 0; partition < PARTITIONS; partition++) {
    stored.set(partition, await readPartition(cluster.bootstrap(), { topic: TOPIC, partition }));
  }
  const end = (partition: number) => stored.get(partition)?.at(-1)?.offset ?? -1;
  await waitFor(
    "the consumers read to the end",
    async () => {
      const done = [...stored.keys()].every((p) => (group.highest.get(p) ?? -1) >= end(p));
      return done ? true : undefined;
    },
    60_000,
  ).catch(() => undefined);
  await group.stop();
  const anomalies = check(history.events, stored);
  const assigned = await cluster.partitions(TOPIC);
  for (let partition = 0; partition < PARTITIONS; partition++) {
    const replicas = assigned.get(partition)?.replicas ?? cluster.ids;
    anomalies.push(
      ...(await agreeingReplicas(cluster, { partition, replicas }, end(partition) + 1)),
    );
  }
  return anomalies;
}

async function agreeingReplicas(
  cluster: Cluster,
  of: { readonly partition: number; readonly replicas: readonly number[] },
  highWatermark: number,
) {
  const compare = () =>
    compareReplicas(cluster, { topic: TOPIC, partition: of.partition }, highWatermark, of.replicas);
  let differences = await compare();
  for (let attempt = 0; differences.length > 0 && attempt < 30; attempt++) {
    await sleep(1000);
    differences = await compare();
  }
  return differences.map((d): Anomaly => ({
    kind: "replica-divergence",
    partition: d.partition,
    detail: d.detail,
  }));
}

function summary(
  scenario: Scenario,
  seconds: number,
  history: History,
  outcome: Pick<RunResult, "faults" | "recoveryMs" | "anomalies" | "historyPath">,
): RunResult {
  const sends = history.events.filter((e) => e.f === "send");
  return {
    scenario: scenario.name,
    seconds,
    outsideFaultModel: scenario.outsideFaultModel ?? null,
    operations: {
      invoked: sends.filter((e) => e.type === "invoke").length,
      ok: sends.filter((e) => e.type === "ok").length,
      info: sends.filter((e) => e.type === "info").length,
    },
    polled: history.events.filter((e) => e.f === "poll").length,
    ...outcome,
  };
}

/** Copies each node's log and its replicas of the topic next to the history, for diagnosis. */
function keepEvidence(cluster: Cluster, into: string): void {
  for (const node of cluster.nodes) {
    const target = join(into, `node-${node.nodeId}`);
    if (existsSync(node.logPath)) cpSync(node.logPath, join(target, "sluice.log"));
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const dir = join(node.dataDir, `${TOPIC}-${partition}`);
      if (existsSync(dir)) cpSync(dir, join(target, `${TOPIC}-${partition}`), { recursive: true });
    }
  }
}
