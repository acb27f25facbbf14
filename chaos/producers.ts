/**
 * The producers of a run: one kcat (librdkafka) process per partition with `acks=all` and
 * idempotence, fed a unique value a line; each value's invoke is recorded when it is handed to
 * kcat, its ok (with the offset) or info (delivery failed: it may still have been written) when
 * kcat reports its delivery. librdkafka reports the deliveries of one partition in the order the
 * values were produced, failures included, so the n-th report belongs to the n-th value.
 */
import { spawn } from "node:child_process";
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

export function startKcatProducer(
  history: History,
  target: {
    readonly bootstrap: string;
    readonly topic: string;
    readonly partition: number;
    readonly intervalMs: number;
  },
): Producer {
  const name = `kcat-${target.partition}`;
  const { partition } = target;
  const child = spawn(
    "kcat",
    ["-P", "-b", target.bootstrap, "-t", target.topic, "-p", String(partition), "-K", ":"]
      .concat(["-X", "enable.idempotence=true", "-X", "acks=all"])
      .concat(["-X", "message.timeout.ms=20000", "-X", "linger.ms=5", "-v", "-v"]),
    { stdio: ["pipe", "ignore", "pipe"] },
  );
  onCleanUp(name, async () => void child.kill("SIGKILL"));
  const pending: string[] = [];
  const reports = recordReports(history, { name, partition, pending });
  createInterface({ input: child.stderr }).on("line", reports.onLine);
  let stopping = false;
  const feeding = (async () => {
    for (let index = 0; !stopping; index++) {
      const value = `${partition}-${index}`;
      pending.push(value);
      history.add({ process: name, type: "invoke", f: "send", partition, value });
      child.stdin.write(`k${partition}:${value}\n`);
      await sleep(target.intervalMs);
    }
    child.stdin.end();
  })();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name,
    acknowledged: () => reports.acknowledged,
    stop: async () => {
      stopping = true;
      await feeding;
      await exited;
      for (const value of pending.splice(0)) {
        history.add({
          process: name,
          type: "info",
          f: "send",
          partition,
          value,
          error: "no report",
        });
      }
    },
  };
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
      if (delivered === null && failed === null) return;
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
    },
  };
  return reports;
}
