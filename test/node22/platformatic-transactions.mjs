// Run by platformatic.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22): a
// transactional producer commits a transaction, aborts one and commits another on a
// one-partition topic, then a read_committed fetch (isolation level 1) reads the partition from
// offset 0, the client dropping the aborted transaction the broker names and skipping the
// control batches. Prints one JSON line: what was committed, what was aborted, what was read.
import {
  Admin,
  Consumer,
  FetchIsolationLevels,
  Producer,
  stringSerializers,
} from "@platformatic/kafka";

const [bootstrap, topic] = process.argv.slice(2);
const IS_CONTROL = 0x20;
const admin = new Admin({
  clientId: "txn-admin",
  bootstrapBrokers: [bootstrap],
  retries: 100,
  retryDelay: 200,
});
const producer = new Producer({
  clientId: "txn-producer",
  bootstrapBrokers: [bootstrap],
  serializers: stringSerializers,
  idempotent: true,
  transactionalId: "platformatic-transactions",
  retries: 100,
  retryDelay: 200,
});
const consumer = new Consumer({
  clientId: "txn-consumer",
  groupId: "unused-no-group-is-joined",
  bootstrapBrokers: [bootstrap],
});
try {
  await admin.createTopics({ topics: [topic], partitions: 1, replicas: 1 });
  const committed = [];
  const aborted = [];
  for (const [round, commit] of [
    [0, true],
    [1, false],
    [2, true],
  ]) {
    const transaction = await producer.beginTransaction();
    const messages = Array.from({ length: 5 }, (_, index) => ({
      topic,
      partition: 0,
      key: `k${index}`,
      value: `round-${round}-${index}`,
    }));
    await transaction.send({ messages });
    if (commit) await transaction.commit();
    else await transaction.abort();
    (commit ? committed : aborted).push(...messages.map((message) => message.value));
  }
  const metadata = await consumer.metadata({ topics: [topic] });
  const topicMetadata = metadata.topics.get(topic);
  const leader = topicMetadata.partitions[0].leader;
  const read = [];
  let fetchOffset = 0n;
  let lastStableOffset = -1n;
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await consumer.fetch({
      node: leader,
      maxWaitTime: 100,
      isolationLevel: FetchIsolationLevels.READ_COMMITTED,
      topics: [
        {
          topicId: topicMetadata.id,
          partitions: [
            {
              partition: 0,
              currentLeaderEpoch: -1,
              fetchOffset,
              lastFetchedEpoch: -1,
              partitionMaxBytes: 1 << 20,
            },
          ],
        },
      ],
    });
    const partition = response.responses[0].partitions[0];
    if (partition.errorCode !== 0) throw new Error(`fetch error ${partition.errorCode}`);
    lastStableOffset = partition.lastStableOffset;
    for (const batch of partition.records ?? []) {
      fetchOffset = batch.firstOffset + BigInt(batch.lastOffsetDelta) + 1n;
      if (batch.attributes & IS_CONTROL) continue;
      for (const record of batch.records) read.push(record.value?.toString());
    }
    if (fetchOffset >= lastStableOffset && read.length >= committed.length) break;
  }
  process.stdout.write(
    `${JSON.stringify({ committed, aborted, read, lastStableOffset: String(lastStableOffset) })}\n`,
  );
} finally {
  await producer.close();
  await consumer.close();
  await admin.close();
}
