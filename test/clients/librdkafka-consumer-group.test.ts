/**
 * librdkafka's consumers of the consumer group protocol (KIP-848, `group.protocol=consumer`)
 * against a Sluice node: test/clients/rdkafka/consumer-protocol.c is compiled at test time on
 * librdkafka's C API, and three of them join and leave one group while records are produced;
 * every record is read and covered by a commit, and none is committed by two members.
 * librdkafka serves KIP-848 from 2.4 on, and
 * Debian 12 ships 2.0.2, so the program is linked against the librdkafka that
 * scripts/build-librdkafka.sh builds from the sources on the npm registry (`npm run
 * rdkafka:build`, which npm test runs when it is missing), or else the system's. Without a C
 * compiler, or with a library before KIP-848, the test is skipped and says why.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { SluiceProcess, withDeadline } from "./sluice-process.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "..", "..", "..");
const SOURCE = join(ROOT, "test", "clients", "rdkafka", "consumer-protocol.c");
/** Where scripts/build-librdkafka.sh leaves librdkafka's header and static library. */
const BUILT = join(ROOT, "test", "rdkafka-build");
const TOPIC = "rdkafka-cg-topic";
const GROUP = "rdkafka-cg";
const DEADLINE_MS = 60_000;
/** What consumer-protocol.c exits with when librdkafka does not know group.protocol. */
const NO_KIP_848 = 77;

const buildDir = mkdtempSync(join(tmpdir(), "sluice-rdkafka-"));
const binary = join(buildDir, "consumer-protocol");
let skipReason: string | undefined;
let node: SluiceProcess | undefined;
const consumers = new Set<Consumer>();

/** Compiles the consumer; the reason to skip, if it cannot be built or lacks KIP-848. */
async function build(): Promise<string | undefined> {
  try {
    const built = join(BUILT, "lib", "librdkafka.a");
    const library = existsSync(built)
      ? [`-I${join(BUILT, "include")}`, built, "-lpthread", "-lm", "-ldl", "-lrt"]
      : ["-lrdkafka"];
    await run("cc", ["-O1", "-o", binary, SOURCE, ...library]);
  } catch (error) {
    return `cannot compile a librdkafka program (cc and librdkafka-dev needed): ${String(error)}`;
  }
  try {
    await run(binary, ["127.0.0.1:1", "probe", "probe"], { timeout: 10_000 });
    return "the probe consumer exited at once";
  } catch (error) {
    const { code, stderr } = error as { code?: unknown; stderr?: string };
    if (code === NO_KIP_848) return `group.protocol=consumer is unknown: ${stderr?.trim()}`;
  }
  return undefined;
}

before(async () => {
  skipReason = await build();
  if (skipReason !== undefined) {
    process.stderr.write(`SKIPPED librdkafka KIP-848 test: ${skipReason}\n`);
    return;
  }
  node = await SluiceProcess.create(["group.consumer.heartbeat.interval.ms=500"]);
  await node.start();
});

after(async () => {
  for (const consumer of consumers) await consumer.stop();
  await node?.destroy();
  rmSync(buildDir, { recursive: true, force: true });
});

/** One consumer-protocol.c process and the lines it printed. */
class Consumer {
  readonly lines: string[] = [];
  private readonly exited: Promise<void>;
  private pending = "";

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on("data", (chunk: Buffer) => {
      const text = this.pending + chunk.toString();
      const parts = text.split("\n");
      this.pending = parts.pop() ?? "";
      this.lines.push(...parts);
    });
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  static start(name: string, bootstrap: string): Consumer {
    const child = spawn(binary, [bootstrap, GROUP, TOPIC], { stdio: ["ignore", "pipe", "pipe"] });
    const consumer = new Consumer(name, child);
    consumers.add(consumer);
    return consumer;
  }

  /** The values of the records it printed with `kind` ("read" or "committed"). */
  values(kind: "read" | "committed"): string[] {
    return this.records(kind).map((record) => record.value);
  }

  /** The records it printed with `kind`: partition, offset and value. */
  records(kind: "read" | "committed"): { partition: number; offset: number; value: string }[] {
    return this.lines
      .filter((line) => line.startsWith(`${kind} `))
      .map((line) => line.split(" "))
      .map(([, partition, offset, value]) => ({
        partition: Number(partition),
        offset: Number(offset),
        value: value ?? "",
      }));
  }

  /** SIGTERM: it closes its consumer, leaving the group, and exits. */
  async stop(): Promise<void> {
    if (!consumers.delete(this)) return;
    this.child.kill("SIGTERM");
    await withDeadline(this.exited, DEADLINE_MS, () => `${this.name} did not exit`);
  }
}

/** Produces batches of ten until `isDone`, for at most the deadline; records what was acked. */
async function produceUntil(
  producer: Producer,
  acknowledged: string[],
  isDone: () => boolean,
): Promise<void> {
  const deadlineMs = Date.now() + DEADLINE_MS;
  do {
    const values = Array.from({ length: 10 }, (_, index) => `v${acknowledged.length + index}`);
    await producer.send({ topic: TOPIC, acks: -1, messages: values.map((value) => ({ value })) });
    acknowledged.push(...values);
  } while (!isDone() && Date.now() < deadlineMs);
  assert.ok(isDone(), "the consumers made progress before the deadline");
}

test("librdkafka KIP-848 members come and go, read every record, commit none twice", async (t) => {
  if (skipReason !== undefined || node === undefined) {
    t.skip(skipReason);
    return;
  }
  const bootstrap = node.bootstrap;
  const kafka = new Kafka({ brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 6 }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const acknowledged: string[] = [];
  const readCount = (consumer: Consumer) => consumer.values("read").length;

  const a = Consumer.start("a", bootstrap);
  await produceUntil(producer, acknowledged, () => readCount(a) > 0);
  const b = Consumer.start("b", bootstrap);
  await produceUntil(producer, acknowledged, () => readCount(b) > 0);
  const c = Consumer.start("c", bootstrap);
  await produceUntil(producer, acknowledged, () => readCount(c) > 0);
  await a.stop();
  const afterA = readCount(b) + readCount(c);
  await produceUntil(producer, acknowledged, () => readCount(b) + readCount(c) > afterA + 20);
  await producer.disconnect();

  const all = [a, b, c];
  const committed = () => all.flatMap((consumer) => consumer.values("committed"));
  // A commit covers its partition up to its offset: a record whose own commit failed (a stale
  // member epoch while the group changes) is covered by the next commit on its partition.
  const uncovered = () => {
    const reach = new Map<number, number>();
    for (const { partition, offset } of all.flatMap((each) => each.records("committed"))) {
      reach.set(partition, Math.max(reach.get(partition) ?? -1, offset));
    }
    const read = all.flatMap((each) => each.records("read"));
    const covered = new Set(
      read.filter((r) => r.offset <= (reach.get(r.partition) ?? -1)).map((r) => r.value),
    );
    return acknowledged.filter((value) => !covered.has(value));
  };
  await withDeadline(
    (async () => {
      while (uncovered().length > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    })(),
    DEADLINE_MS,
    () => `${uncovered().length} of ${acknowledged.length} records not covered by a commit`,
  );
  await b.stop();
  await c.stop();
  const read = new Set(all.flatMap((consumer) => consumer.values("read")));
  assert.deepEqual([...read].sort(), [...acknowledged].sort());
  // A record is read twice only when its first commit did not land (a stale member epoch while
  // the group changes); no record is committed by two members.
  assert.equal(committed().length, new Set(committed()).size);
});
