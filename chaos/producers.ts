/**
 * The producers of a run: one kcat (librdkafka) process per partition with `acks=all` and
 * idempotence, fed a unique value a line; each value's invoke is recorded when it is handed to
 * kcat, its ok (with the offset) or info (delivery failed: it may still have been written) when
 * kcat reports its delivery. librdkafka reports the deliveries of one partition in the order the
 * values were produced, failures included, so the n-th report belongs to the n-th value.
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { History } from "./history.js";
import { onCleanUp, sleep } from "./system.js";

export interface Producer {
  readonly name: string;
  acknowledged(): number;
  stop(): Promise<void>;
}

const DELIVERED = /Message delivered to partition \d+ \(offset (-?\d+)\)/;
const FAILED = /Delivery failed for message: (.*)$/;

interface KcatTarget {
  readonly bootstrap: string;
  readonly topic: string;
  readonly partition: number;
  readonly intervalMs: number;
  /** Where kcat's own messages go (librdkafka's idempotence debug log among them). */
  readonly logPath: string;
}

/**
 * A kcat producer for one partition. kcat ends itself when librdkafka finds every broker
 * connection down (as in a rolling restart); the values it had not reported are then info (they
 * may have been written) and a new kcat, with a new producer id, takes over.
 */
export function startKcatProducer(history: History, target: KcatTarget): Producer {
  const name = `kcat-${target.partition}`;
  const { partition } = target;
  const pending: string[] = [];
  const reports = recordReports(history, { name, partition, pending });
  let stopping = false;
  let current = spawnKcat(target, reports.onLine);
  const giveUpPending = (error: string) => {
    for (const value of pending.splice(0)) {
      history.add({ process: name, type: "info", f: "send", partition, value, error });
    }
  };
  const respawn = (): void => {
    if (stopping) return;
    giveUpPending("kcat ended");
    history.add({ process: name, type: "info", f: "restart", error: "kcat ended; a new one" });
    current = spawnKcat(target, reports.onLine);
    void current.exited.then(respawn);
  };
  void current.exited.then(respawn);
  const kill = () => {
    stopping = true;
    current.child.kill("SIGKILL");
  };
  onCleanUp(name, async () => kill(), kill);
  const feeding = (async () => {
    for (let index = 0; !stopping; index++) {
      const value = `${partition}-${index}`;
      pending.push(value);
      history.add({ process: name, type: "invoke", f: "send", partition, value });
      current.child.stdin?.write(`k${partition}:${value}\n`);
      await sleep(target.intervalMs);
    }
    current.child.stdin?.end();
  })();
  return {
    name,
    acknowledged: () => reports.acknowledged,
    stop: async () => {
      stopping = true;
      await feeding;
      await current.exited;
      giveUpPending("no report");
    },
  };
}

function spawnKcat(target: KcatTarget, onReport: (line: string) => boolean) {
  const child = spawn(
    "kcat",
    ["-P", "-b", target.bootstrap, "-t", target.topic, "-p", String(target.partition)]
      .concat(["-K", ":", "-X", "enable.idempotence=true", "-X", "acks=all"])
      .concat(["-X", "message.timeout.ms=20000", "-X", "linger.ms=5", "-X", "debug=eos"])
      .concat(["-v", "-v"]),
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  child.stdin.on("error", () => undefined);
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (!onReport(line)) appendFileSync(target.logPath, line + "\n");
  });
  // "close", not "exit": every report on its standard error has been read by then.
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return { child, exited };
}

/** Matches kcat's delivery reports, in order, to the values still waiting for one. */
function recordReports(
  history: History,
  producer: { readonly name: string; readonly partition: number; readonly pending: string[] },
) {
  const { name, partition, pending } = producer;
  const reports = {
    acknowledged: 0,
    onLine: (line: string) => {
      const delivered = DELIVERED.exec(line);
      const failed = FAILED.exec(line);
      if (delivered === null && failed === null) return false;
      const value = pending.shift();
      if (value === undefined) {
        history.add({ process: name, type: "info", f: "report", error: `unmatched: ${line}` });
      } else if (delivered !== null) {
        reports.acknowledged++;
        history.add({
          process: name,
          type: "ok",
          f: "send",
          partition,
          value,
          offset: Number(delivered[1]),
        });
      } else {
        history.add({
          process: name,
          type: "info",
          f: "send",
          partition,
          value,
          error: failed?.[1] ?? "",
        });
      }
      return true;
    },
  };
  return reports;
}
