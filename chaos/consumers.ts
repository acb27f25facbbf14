/**
 * The consumers of a run: kafkajs members of one group that read every partition of the topic
 * and commit as they go (auto-commit each second). Each record read is a poll `ok`, each new
 * assignment an `assign`, each commit the coordinator accepted a commit `ok` per partition.
 */
import { Kafka, logLevel, type Consumer } from "kafkajs";
import type { History } from "./history.js";

export interface ConsumerGroup {
  /** The highest offset read of each partition, over all members. */
  readonly highest: Map<number, number>;
  stop(): Promise<void>;
}

export async function startConsumerGroup(
  history: History,
  options: { readonly bootstrap: string; readonly topic: string; readonly members: number },
): Promise<ConsumerGroup> {
  const kafka = new Kafka({
    clientId: "chaos-consumer",
    brokers: options.bootstrap.split(","),
    logLevel: logLevel.NOTHING,
    requestTimeout: 5000,
    connectionTimeout: 3000,
    retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 2000 },
  });
  const highest = new Map<number, number>();
  const consumers: Consumer[] = [];
  for (let index = 0; index < options.members; index++) {
    const name = `kafkajs-${index}`;
    const consumer = kafka.consumer({
      groupId: "chaos-group",
      sessionTimeout: 10_000,
      heartbeatInterval: 1000,
      retry: {
        retries: 10,
        initialRetryTime: 200,
        maxRetryTime: 2000,
        restartOnFailure: async () => true,
      },
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      const partitions = event.payload.memberAssignment[options.topic] ?? [];
      history.add({ process: name, type: "ok", f: "assign", partitions });
    });
    consumer.on(consumer.events.COMMIT_OFFSETS, (event) => {
      for (const topic of event.payload.topics) {
        if (topic.topic !== options.topic) continue;
        for (const { partition, offset } of topic.partitions) {
          history.add({
            process: name,
            type: "ok",
            f: "commit",
            partition: Number(partition),
            offset: Number(offset),
          });
        }
      }
    });
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    await consumer.run({
      autoCommitInterval: 1000,
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset);
        const value = message.value?.toString() ?? "";
        history.add({ process: name, type: "ok", f: "poll", partition, offset, value });
        highest.set(partition, Math.max(highest.get(partition) ?? -1, offset));
      },
    });
    consumers.push(consumer);
  }
  return {
    highest,
    stop: async () => {
      await Promise.all(consumers.map((consumer) => consumer.disconnect().catch(() => undefined)));
    },
  };
}
