/**
 * kafkajs against an embedded cluster, for the tests of `startCluster`: a producer writing with
 * acks=all, and reading a partition back from its beginning with a consumer outside any group
 * (kafkajs needs a group, so each read gets a new one and reads from the earliest offset).
 */
import { Kafka, logLevel, type Producer } from "kafkajs";

export function kafkaOf(bootstrapServers: string): Kafka {
  return new Kafka({
    clientId: "embedded-test",
    brokers: bootstrapServers.split(","),
    logLevel: logLevel.NOTHING,
    retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 },
  });
}

/** Sends `values` to one partition, one acks=all request each; resolves to their offsets. */
export async function produceAll(
  producer: Producer,
  target: { readonly topic: string; readonly partition: number },
  values: readonly string[],
): Promise<number[]> {
  const offsets: number[] = [];
  for (const value of values) {
    const [result] = await producer.send({
      topic: target.topic,
      acks: -1,
      messages: [{ value, partition: target.partition }],
    });
    offsets.push(Number(result?.baseOffset ?? -1));
  }
  return offsets;
}

/** The values of `topic`'s partition from offset 0 until `count` have arrived. */
export async function readValues(
  kafka: Kafka,
  target: { readonly topic: string; readonly partition: number; readonly count: number },
): Promise<string[]> {
  const consumer = kafka.consumer({ groupId: `read-${target.topic}-${Math.random()}` });
  const values: string[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: target.topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            if (partition !== target.partition) return;
            values.push(message.value?.toString() ?? "");
            if (values.length >= target.count) resolve();
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return values;
}

/** `count` distinct values named after `prefix`. */
export function valuesOf(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
}
