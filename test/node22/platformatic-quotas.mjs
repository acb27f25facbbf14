// Run by quotas.test.ts under Node 22 (@platformatic/kafka needs Node >= 22.22): sets a
// producer_byte_rate quota for one client id with the admin client (and a bad key, which is
// refused), describes it back, then produces with that client id and with another, counting
// the Produce responses that carry a throttle time. The responses are read off the client's
// own diagnostics channel, so the count is of what the client received. Prints one JSON line.
import { tracingChannel } from "node:diagnostics_channel";
import { Admin, Consumer, Producer, stringSerializers } from "@platformatic/kafka";

const [bootstrap, topic, throttledClientId] = process.argv.slice(2);
const PRODUCE = 0;

// The producers run one after the other: each response is the current producer's.
let producing;
const throttleTimes = new Map();
tracingChannel("plt:kafka:connections:api").subscribe({
  asyncEnd: (event) => {
    if (event.apiKey !== PRODUCE || event.result === undefined) return;
    const times = throttleTimes.get(producing) ?? [];
    times.push(event.result.throttleTimeMs);
    throttleTimes.set(producing, times);
  },
});

const admin = new Admin({ clientId: "sluice-quotas-admin", bootstrapBrokers: [bootstrap] });
const entity = [{ entityType: "client-id", entityName: throttledClientId }];

async function refusalOf(promise) {
  try {
    return { answer: await promise };
  } catch (error) {
    // The client wraps the response's error in MultipleErrors; the response is inside.
    let found = error;
    while (found.response === undefined && found.errors?.[0] !== undefined) found = found.errors[0];
    const entries = found.response?.entries ?? [];
    return { refused: entries.map((entry) => [entry.errorCode, entry.errorMessage]) };
  }
}

async function produce(clientId, sizes) {
  producing = clientId;
  const producer = new Producer({
    clientId,
    bootstrapBrokers: [bootstrap],
    serializers: stringSerializers,
    autocreateTopics: true,
  });
  try {
    for (const size of sizes) {
      await producer.send({ messages: [{ topic, value: "x".repeat(size) }], acks: -1 });
    }
  } finally {
    await producer.close();
  }
}

/**
 * Fetches partition 0 from offset 0, then from past what came back, with a client id whose
 * consumer_byte_rate is set: what each fetch answered (record batches, throttle time).
 */
async function consume(clientId) {
  const consumer = new Consumer({
    clientId,
    groupId: "unused-no-group-is-joined",
    bootstrapBrokers: [bootstrap],
  });
  try {
    const metadata = await consumer.metadata({ topics: [topic] });
    const { id, partitions } = metadata.topics.get(topic);
    const answers = [];
    let fetchOffset = 0n;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await consumer.fetch({
        node: partitions[0].leader,
        maxWaitTime: 100,
        topics: [
          {
            topicId: id,
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
      const batches = response.responses[0]?.partitions[0]?.records ?? [];
      for (const batch of batches) {
        fetchOffset = batch.firstOffset + BigInt(batch.records.length);
      }
      answers.push({ batches: batches.length, throttled: response.throttleTimeMs > 0 });
    }
    return answers;
  } finally {
    await consumer.close();
  }
}

try {
  const altered = await admin.alterClientQuotas({
    entries: [
      { entities: entity, ops: [{ key: "producer_byte_rate", value: 4096, remove: false }] },
    ],
  });
  const badKey = await refusalOf(
    admin.alterClientQuotas({
      entries: [{ entities: entity, ops: [{ key: "linger_ms", value: 1, remove: false }] }],
    }),
  );
  const described = await admin.describeClientQuotas({
    components: [{ entityType: "client-id", matchType: 0, match: throttledClientId }],
  });
  // 4096 bytes/s over 10 windows lets ~40 KB through at once: the first message fits, the
  // second takes the rate past the bound, and the third comes while it still is.
  await produce(throttledClientId, [30_000, 15_000, 100]);
  await produce(`${throttledClientId}-other`, [30_000, 15_000, 100]);
  // The same bound on fetching: a fetch may take ~40 KB, so the first one answers the 30 KB
  // batch alone and the second, whose batch takes the rate past the bound, is throttled.
  const consumerEntity = [{ entityType: "client-id", entityName: "throttled-consumer" }];
  await admin.alterClientQuotas({
    entries: [
      {
        entities: consumerEntity,
        ops: [{ key: "consumer_byte_rate", value: 4096, remove: false }],
      },
    ],
  });
  const consumed = await consume("throttled-consumer");
  console.log(
    JSON.stringify({
      altered: altered.map((entry) => entry.errorCode),
      badKey,
      described: described.map((entry) => ({ entity: entry.entity, values: entry.values })),
      throttled: (throttleTimes.get(throttledClientId) ?? []).map((ms) => ms > 0),
      other: (throttleTimes.get(`${throttledClientId}-other`) ?? []).map((ms) => ms > 0),
      consumed,
    }),
  );
} finally {
  await admin.close();
}
