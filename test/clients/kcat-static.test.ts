/**
 * Static membership (KIP-345) with librdkafka: two kcat consumers with a `group.instance.id`
 * share a topic; one is stopped (a static member sends no LeaveGroup on close) and started again
 * with the same instance id within its session timeout. Its JoinGroup is answered at once in the
 * group's current generation, without a rebalance, and it gets its partitions back. kcat's
 * `-d cgrp` log shows each JoinGroup answer's generation and each assignment.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { Kafka, logLevel } from "kafkajs";
import { SluiceProcess, withDeadline } from "./sluice-process.js";

const TOPIC = "static-topic";
const GROUP = "static-group";
const DEADLINE_MS = 60_000;

let node: SluiceProcess;
const consumers = new Set<StaticConsumer>();

before(async () => {
  node = await SluiceProcess.create(["group.initial.rebalance.delay.ms=0"]);
  await node.start();
  const kafka = new Kafka({ brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
  await admin.disconnect();
});

after(async () => {
  for (const consumer of consumers) await consumer.stop();
  await node.destroy();
});

/** What the consumer's last JoinGroup answer said, and what it was assigned after it. */
interface Joined {
  readonly generationId: number;
  readonly memberId: string;
  readonly assigned: string | undefined;
}

/** One `kcat -G` consumer process with a group.instance.id, and its log. */
class StaticConsumer {
  private log = "";
  private readonly exited: Promise<void>;
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly child: ChildProcess) {
    const onData = (chunk: Buffer) => {
      this.log += chunk.toString();
      for (const wake of this.waiters) wake();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
  }

  static start(instanceId: string): StaticConsumer {
    const args = ["-b", node.bootstrap, "-G", GROUP, TOPIC, "-d", "cgrp"];
    const settings = [`group.instance.id=${instanceId}`, "session.timeout.ms=30000"];
    const child = spawn("kcat", [...args, ...settings.flatMap((setting) => ["-X", setting])], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const consumer = new StaticConsumer(child);
    consumers.add(consumer);
    return consumer;
  }

  text(): string {
    return this.log;
  }

  /** Every JoinGroup answer so far, each with the assignment that followed it, if any. */
  joins(): Joined[] {
    const joins: Joined[] = [];
    for (const line of this.log.split("\n")) {
      const join = /JoinGroup response: GenerationId (\d+),.* my MemberId (\S+),/.exec(line);
      if (join !== null) {
        joins.push({ generationId: Number(join[1]), memberId: join[2] ?? "", assigned: undefined });
      }
      const assigned = /rebalanced \(memberid (\S+)\): assigned: (.*)$/.exec(line);
      const last = joins.at(-1);
      if (assigned !== null && last !== undefined && last.memberId === assigned[1]) {
        joins[joins.length - 1] = { ...last, assigned: assigned[2]?.trim() ?? "" };
      }
    }
    return joins;
  }

  /** Waits until the last JoinGroup answer is followed by an assignment and `isIt` holds. */
  async settled(isIt: (joined: Joined) => boolean = () => true): Promise<Joined> {
    const check = () => {
      const last = this.joins().at(-1);
      return last?.assigned !== undefined && isIt(last) ? last : undefined;
    };
    const waiting = new Promise<Joined>((resolve) => {
      const wake = () => {
        const joined = check();
        if (joined === undefined) return;
        this.waiters.delete(wake);
        resolve(joined);
      };
      this.waiters.add(wake);
      wake();
    });
    return withDeadline(waiting, DEADLINE_MS, () => `no assignment:\n${this.log}`);
  }

  /** Stops kcat as an operator would (SIGTERM: it closes its consumer) and waits for the exit. */
  async stop(): Promise<void> {
    consumers.delete(this);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    await withDeadline(this.exited, DEADLINE_MS, () => `kcat did not stop:\n${this.log}`);
  }
}

/** Waits until both consumers are assigned in the same generation; their last joins. */
async function settledTogether(a: StaticConsumer, b: StaticConsumer): Promise<[Joined, Joined]> {
  let left = await a.settled();
  let right = await b.settled();
  while (left.generationId !== right.generationId) {
    const ahead = Math.max(left.generationId, right.generationId);
    if (left.generationId < ahead) left = await a.settled((last) => last.generationId >= ahead);
    else right = await b.settled((last) => last.generationId >= ahead);
  }
  return [left, right];
}

test("a restarted static member gets its partitions back without a rebalance", async () => {
  const first = StaticConsumer.start("instance-a");
  await first.settled();
  const other = StaticConsumer.start("instance-b");
  const [joined, otherJoined] = await settledTogether(first, other);
  assert.notEqual(joined.assigned, "", "the first member has partitions");
  await first.stop();
  const restarted = StaticConsumer.start("instance-a");
  await restarted.settled();
  // Its first JoinGroup answer: the group's generation, with no rebalance.
  const rejoined = restarted.joins()[0];
  assert.equal(rejoined?.generationId, joined.generationId, "no rebalance: the same generation");
  assert.notEqual(rejoined?.memberId, joined.memberId, "a new member id");
  assert.equal(rejoined?.assigned, joined.assigned, `its old partitions:\n${restarted.text()}`);
  const otherJoins = other.joins();
  assert.equal(otherJoins.at(-1)?.generationId, otherJoined.generationId, "the other stayed");
  await restarted.stop();
  await other.stop();
});
