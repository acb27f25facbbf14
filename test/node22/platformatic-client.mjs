// Run by platformatic.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22): produces
// keyed messages with acks=-1 (idempotent when the fourth argument is "idempotent") and
// reads them back from offset 0 with the Consumer's group-less `fetch` (Sluice has no group
// coordinator yet). Prints one JSON line: what was acknowledged and what was read. The
// environment variable PLATFORMATIC_SECURITY, when set, is JSON with the clients' `tls` and
// `sasl` options (security.test.ts: TLS, mutual TLS, SASL/SCRAM over TLS).
import { Consumer, Producer, stringSerializers } from "@platformatic/kafka";

const [bootstrap, topic, countText, mode] = process.argv.slice(2);
const count = Number(countText);
const security = JSON.parse(process.env.PLATFORMATIC_SECURITY ?? "{}");
const producer = new Producer({
  ...security,
  clientId: "sluice-platformatic-producer",
  bootstrapBrokers: [bootstrap],
  serializers: stringSerializers,
  idempotent: mode === "idempotent",
  autocreateTopics: true,
});
const consumer = new Consumer({
  ...security,
  clientId: "sluice-platformatic-consumer",
  groupId: "unused-no-group-is-joined",
  bootstrapBrokers: [bootstrap],
});
try {
  const acknowledged = [];
  for (let start = 0; start < count; start += 20) {
    const messages = [];
    for (let index = start; index < Math.min(count, start + 20); index++) {
      messages.push({ topic, key: `key-${index % 11}`, value: `platformatic ${index}` });
    }
    await producer.send({ messages, acks: -1 });
    acknowledged.push(...messages.map((message) => `${message.key}=${message.value}`));
  }
  const metadata = await consumer.metadata({ topics: [topic] });
  const topicMetadata = metadata.topics.get(topic);
  const leader = topicMetadata.partitions[0].leader;
  const read = [];
  for (let attempt = 0; read.length < count && attempt < 100; attempt++) {
    const response = await consumer.fetch({
      node: leader,
      maxWaitTime: 100,
      topics: [
        {
          topicId: topicMetadata.id,
          partitions: [
            {
              partition: 0,
              currentLeaderEpoch: -1,
              fetchOffset: BigInt(read.length),
              lastFetchedEpoch: -1,
              partitionMaxBytes: 1 << 20,
            },
          ],
        },
      ],
    });
    const partition = response.responses[0].partitions[0];
    if (partition.errorCode !== 0) throw new Error(`fetch error ${partition.errorCode}`);
    for (const batch of partition.records ?? []) {
      for (const record of batch.records) {
        if (batch.firstOffset + BigInt(record.offsetDelta) !== BigInt(read.length)) continue;
        read.push(`${record.key?.toString()}=${record.value?.toString()}`);
      }
    }
  }
  process.stdout.write(`${JSON.stringify({ acknowledged, read })}\n`);
} finally {
  await producer.close();
  await consumer.close();
}
