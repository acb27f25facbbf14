/**
 * Producers for the fault tests, each a real client writing unique values one after another to
 * one partition with acks=all and no retries, so that a value is written at most once (a retry
 * without idempotence may store a value twice, and Sluice has no idempotent producer yet): what
 * a client acknowledged must be in the log exactly once, in the order acknowledged, at the offset
 * reported; what failed may or may not be there, but once at most. Each producer records its
 * acknowledged values with their offsets until it is stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Kafka, logLevel } from "kafkajs";

/** A value the client acknowledged, with the offset it reported. */
export interface Acknowledged {
  readonly value: string;
  readonly offset: number;
}

/** A running producer: `stop` ends it and resolves to what it sent and what was acknowledged. */
export interface RunningProducer {
  readonly name: string;
  /** How many values were acknowledged so far. */
  acknowledgedCount(): number;
  stop(): Promise<{ readonly sent: readonly string[]; readonly acknowledged: Acknowledged[] }>;
}

/** Every producer started and not yet stopped, so that a failed test can still stop them. */
const running = new Set<RunningProducer>();

/** Registers `producer` until it is stopped. */
function tracked(producer: RunningProducer): RunningProducer {
  const stoppable: RunningProducer = {
    ...producer,
    stop: () => {
      running.delete(stoppable);
      return producer.stop();
    },
  };
  running.add(stoppable);
  return stoppable;
}

/**
 * Stops every producer a test left running (its assertion failed before it stopped them), so
 * that no client loop keeps the test's process alive; call it in `after`, before the nodes die.
 */
export async function stopProducers(): Promise<void> {
  for (const producer of [...running]) await producer.stop().catch(() => undefined);
}

/** The pause after a failed send, so a producer waits out a leader change instead of spinning. */
const FAILURE_PAUSE_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** kafkajs in this process, one value per send. */
export function startKafkajsProducer(
  bootstrap: string,
  target: { readonly topic: string; readonly partition: number },
): RunningProducer {
  const kafka = new Kafka({
    clientId: "fault-test-kafkajs",
    brokers: bootstrap.split(","),
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
    // A frozen broker holds connections open: give up on it as a client would, in seconds.
    requestTimeout: 5000,
    connectionTimeout: 3000,
  });
  const producer = kafka.producer({ retry: { retries: 0 }, allowAutoTopicCreation: false });
  const sent: string[] = [];
  const acknowledged: Acknowledged[] = [];
  let isStopped = false;
  const loop = (async () => {
    await connectEventually(
      () => producer.connect(),
      () => isStopped,
    );
    for (let index = 0; !isStopped; index++) {
      const value = `kafkajs-${index}`;
      sent.push(value);
      try {
        const [answer] = await producer.send({
          topic: target.topic,
          acks: -1,
          timeout: 5000,
          messages: [{ partition: target.partition, value }],
        });
        if (answer !== undefined && answer.errorCode === 0) {
          acknowledged.push({ value, offset: Number(answer.baseOffset) });
        }
      } catch {
        await sleep(FAILURE_PAUSE_MS);
      }
    }
    await producer.disconnect();
  })();
  return tracked({
    name: "kafkajs",
    acknowledgedCount: () => acknowledged.length,
    stop: async () => {
      isStopped = true;
      await loop;
      return { sent, acknowledged };
    },
  });
}

async function connectEventually(connect: () => Promise<void>, isStopped: () => boolean) {
  while (!isStopped()) {
    try {
      await connect();
      return;
    } catch {
      await sleep(FAILURE_PAUSE_MS);
    }
  }
}

/**
 * @platformatic/kafka under Node 22 (it needs 22.22+): test/node22/platformatic-producer.mjs
 * prints one JSON line per acknowledgement and stops when its standard input closes.
 */
export function startPlatformaticProducer(
  bootstrap: string,
  target: { readonly topic: string; readonly partition: number },
): RunningProducer {
  const script = join(
    import.meta.dirname,
    "..",
    "..",
    "..",
    "test",
    "node22",
    "platformatic-producer.mjs",
  );
  const child = spawn(
    "npx",
    ["-y", "node@22", script, bootstrap, target.topic, String(target.partition)],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  return lineProducer("@platformatic/kafka", child, (line, record) => {
    const parsed = JSON.parse(line) as { sent?: string; value?: string; offset?: number };
    if (parsed.sent !== undefined) record.sent.push(parsed.sent);
    if (parsed.value !== undefined && parsed.offset !== undefined) {
      record.acknowledged.push({ value: parsed.value, offset: parsed.offset });
    }
  });
}

/**
 * kcat (librdkafka) reading one value a line from its standard input, fed here every few
 * milliseconds; with `-v -v` it reports each delivery, and librdkafka reports the deliveries of
 * one partition in the order the values were given, failures included, so the n-th report
 * belongs to the n-th value.
 */
export function startKcatProducer(
  bootstrap: string,
  target: { readonly topic: string; readonly partition: number },
): RunningProducer {
  const child = spawn(
    "kcat",
    [
      "-P",
      "-b",
      bootstrap,
      "-t",
      target.topic,
      "-p",
      String(target.partition),
      "-X",
      "acks=all",
      "-X",
      "retries=0",
      "-X",
      "max.in.flight=1",
      "-X",
      "message.timeout.ms=5000",
      "-X",
      "linger.ms=0",
      "-v",
      "-v",
    ],
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  const sent: string[] = [];
  let reports = 0;
  const acknowledged: Acknowledged[] = [];
  const lines = createInterface({ input: child.stderr });
  lines.on("line", (line) => {
    const delivered = /Message delivered to partition \d+ \(offset (\d+)\)/.exec(line);
    const failed = /Delivery failed/i.test(line);
    if (!delivered && !failed) return;
    const value = sent[reports++];
    if (delivered && value !== undefined)
      acknowledged.push({ value, offset: Number(delivered[1]) });
  });
  let isStopped = false;
  const feeding = (async () => {
    for (let index = 0; !isStopped; index++) {
      const value = `kcat-${index}`;
      sent.push(value);
      child.stdin.write(`${value}\n`);
      await sleep(20);
    }
    child.stdin.end();
  })();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return tracked({
    name: "kcat",
    acknowledgedCount: () => acknowledged.length,
    stop: async () => {
      isStopped = true;
      await feeding;
      await exited;
      return { sent, acknowledged };
    },
  });
}

function lineProducer(
  name: string,
  child: ChildProcess,
  onLine: (line: string, record: { sent: string[]; acknowledged: Acknowledged[] }) => void,
): RunningProducer {
  const record = { sent: [] as string[], acknowledged: [] as Acknowledged[] };
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  if (child.stdout !== null) {
    createInterface({ input: child.stdout }).on("line", (line) => onLine(line, record));
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return tracked({
    name,
    acknowledgedCount: () => record.acknowledged.length,
    stop: async () => {
      child.stdin?.end();
      const code = await exited;
      if (code !== 0) throw new Error(`${name} exited with ${code}: ${errors}`);
      return record;
    },
  });
}

/** Waits until `producer` has `count` more acknowledgements than it has now. */
export async function awaitProgress(producer: RunningProducer, count: number): Promise<void> {
  const target = producer.acknowledgedCount() + count;
  for (let waitedMs = 0; producer.acknowledgedCount() < target; waitedMs += 50) {
    if (waitedMs > 60_000) throw new Error(`${producer.name} made no progress in 60 s`);
    await sleep(50);
  }
}
