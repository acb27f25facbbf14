/**
 * A read_committed kafkajs consumer (`readUncommitted: false`) of a group that reads a topic from
 * the beginning until it has seen `committedCount` values starting with `committedPrefix`
 * ("committed" unless told); resolves to every value it saw, in arrival order. Used by the
 * transaction tests.
 */
import type { Kafka } from "kafkajs";
import { withDeadline } from "./sluice-process.js";

export async function readCommitted(
  kafka: Kafka,
  read: {
    readonly topic: string;
    readonly groupId: string;
    readonly committedCount: number;
    readonly committedPrefix?: string;
  },
): Promise<string[]> {
  const consumer = kafka.consumer({
    groupId: read.groupId,
    readUncommitted: false,
    sessionTimeout: 10_000,
  });
  await consumer.connect();
  await consumer.subscribe({ topic: read.topic, fromBeginning: true });
  const seen: string[] = [];
  const done = new Promise<void>((resolve) => {
    void consumer.run({
      eachMessage: async ({ message }) => {
        seen.push(message.value?.toString() ?? "");
        const prefix = read.committedPrefix ?? "committed";
        const committed = seen.filter((value) => value.startsWith(prefix));
        if (committed.length >= read.committedCount) resolve();
      },
    });
  });
  try {
    await withDeadline(done, 90_000, () => `only ${seen.length} of ${read.committedCount} arrived`);
  } finally {
    await consumer.disconnect();
  }
  return seen;
}
