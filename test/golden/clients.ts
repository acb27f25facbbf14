import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import kafkajs from "kafkajs";

/**
 * Drives real clients against a broker on 127.0.0.1: kcat (librdkafka) and kafkajs, each producing
 * two keyed messages to a topic. Used by the golden capture tool and the live-clients test.
 */

/** The two keyed messages every client produces, as `key:value` lines for kcat. */
export const GOLDEN_MESSAGES = [
  { key: "key-1", value: "value-1" },
  { key: "key-2", value: "value-2" },
] as const;

/** How a kcat run ended. */
export interface KcatResult {
  readonly exitCode: number | null;
  readonly stderr: string;
}

/** A running kcat producer; `stop` kills it if it is still running. */
export interface KcatRun {
  readonly child: ChildProcess;
  readonly done: Promise<KcatResult>;
  stop(): void;
}

/** Starts `kcat -P` producing the golden messages to `topic` at 127.0.0.1:`port`. */
export function startKcat(port: number, topic: string, extraArgs: readonly string[] = []): KcatRun {
  const args = ["-P", "-b", `127.0.0.1:${port}`, "-t", topic, "-K:"];
  args.push("-X", "api.version.request=true", "-X", "message.timeout.ms=15000", ...extraArgs);
  const child = spawn("kcat", args, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => (stderr += text));
  const done = new Promise<KcatResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode) => resolve({ exitCode, stderr }));
  });
  child.stdin?.end(GOLDEN_MESSAGES.map(({ key, value }) => `${key}:${value}\n`).join(""));
  return {
    child,
    done,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/**
 * Produces the golden messages with kafkajs (acks -1, no compression, one attempt) and
 * disconnects. Rejects when the broker does not answer as a Kafka broker would.
 */
export async function produceWithKafkajs(port: number, topic: string): Promise<void> {
  const client = new kafkajs.Kafka({
    clientId: "kafkajs",
    brokers: [`127.0.0.1:${port}`],
    logLevel: kafkajs.logLevel.NOTHING,
    connectionTimeout: 5000,
    requestTimeout: 10000,
    retry: { retries: 0 },
  });
  const producer = client.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      compression: kafkajs.CompressionTypes.None,
      messages: GOLDEN_MESSAGES.map(({ key, value }) => ({ key, value, partition: 0 })),
    });
  } finally {
    await producer.disconnect();
  }
}
