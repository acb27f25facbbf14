// Run by platformatic.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22): the admin
// offsets calls on one group. It sets offsets of a group that has no members
// (alterConsumerGroupOffsets: OffsetCommit outside any generation), also for a topic that does
// not exist, lists them, removes one partition's offset (deleteConsumerGroupOffsets:
// OffsetDelete) and lists them again. Prints one JSON line with what each step saw.
import { Admin } from "@platformatic/kafka";

const [bootstrap, topic, groupId] = process.argv.slice(2);
// The coordinator's `__consumer_offsets` is created on first use: retry until it serves.
const admin = new Admin({
  clientId: "sluice-platformatic-admin",
  bootstrapBrokers: [bootstrap],
  retries: 100,
  retryDelay: 200,
});
// Without retries, so that a refusal is seen as it is.
const once = new Admin({
  clientId: "sluice-platformatic-admin-once",
  bootstrapBrokers: [bootstrap],
  retries: 0,
});

/** The group's committed offsets as `topic-partition=offset`, in order. */
async function committed() {
  const [group] = await admin.listConsumerGroupOffsets({ groups: [groupId] });
  return group.topics
    .flatMap(({ name, partitions }) =>
      partitions.map(
        (partition) => `${name}-${partition.partitionIndex}=${partition.committedOffset}`,
      ),
    )
    .sort();
}

/** Every Kafka error code in an error and the errors it wraps. */
function errorCodesOf(error) {
  const codes = [];
  const visit = (value) => {
    if (value === null || typeof value !== "object") return;
    if (typeof value.apiCode === "number") codes.push(value.apiCode);
    for (const nested of value.errors ?? []) visit(nested);
    for (const nested of Object.values(value.response?.errors ?? {})) visit(nested);
  };
  visit(error);
  return codes;
}

try {
  await admin.createTopics({ topics: [topic], partitions: 2, replicas: 1 });
  const partitionOffsets = [
    { partition: 0, offset: 5n },
    { partition: 1, offset: 7n },
  ];
  await admin.alterConsumerGroupOffsets({ groupId, topics: [{ name: topic, partitionOffsets }] });
  const altered = await committed();
  let unknownTopic = [];
  try {
    const missing = { name: "no-such-topic", partitionOffsets: [{ partition: 0, offset: 1n }] };
    await once.alterConsumerGroupOffsets({ groupId, topics: [missing] });
  } catch (error) {
    unknownTopic = errorCodesOf(error);
  }
  const deleted = await admin.deleteConsumerGroupOffsets({
    groupId,
    topics: [{ name: topic, partitionIndexes: [0] }],
  });
  const afterDelete = await committed();
  process.stdout.write(`${JSON.stringify({ altered, unknownTopic, deleted, afterDelete })}\n`);
} finally {
  await admin.close();
  await once.close();
}
