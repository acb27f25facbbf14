/**
 * Kafka's metrics on the `/metrics` route of a running single-node process, after real client
 * traffic (kafkajs): the families carry the names the JMX exporter's Kafka rules give Kafka's
 * MBeans, and their values move by what the clients did.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { pollUntil } from "../cluster/cluster-process.js";
import { SluiceProcess } from "../clients/sluice-process.js";
import { Scrape } from "./scrape.js";

const TOPIC = "metered";
const RECORDS = 25;
const VALUE = "m".repeat(100);

let node: SluiceProcess;
let kafka: Kafka;
let admin: Admin;

before(async () => {
  node = await SluiceProcess.create(["num.partitions=1"]);
  await node.start();
  kafka = new Kafka({ clientId: "metered", brokers: [node.bootstrap], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }], waitForLeaders: true });
});

after(async () => {
  await admin.disconnect();
  await node.destroy();
});

const scrape = (): Promise<Scrape> => Scrape.of(node.ports.http);

const MESSAGES_IN = "kafka_server_brokertopicmetrics_messagesin_total";
const BYTES_IN = "kafka_server_brokertopicmetrics_bytesin_total";
const BYTES_OUT = "kafka_server_brokertopicmetrics_bytesout_total";
const TOTAL_PRODUCE = "kafka_server_brokertopicmetrics_totalproducerequests_total";
const TOTAL_FETCH = "kafka_server_brokertopicmetrics_totalfetchrequests_total";

test("producing N records moves MessagesIn by N, per topic and in total", async () => {
  const before = await scrape();
  assert.equal(before.typeOf(MESSAGES_IN), "counter");
  const totalBefore = before.valueOf(MESSAGES_IN) ?? 0;
  const producer = kafka.producer();
  await producer.connect();
  try {
    // Two sends to one partition, one to the other: three appends, RECORDS records.
    const messages = Array.from({ length: RECORDS }, () => ({ value: VALUE, key: null }));
    await producer.send({ topic: TOPIC, messages: messages.slice(0, 10).map(at(0)) });
    await producer.send({ topic: TOPIC, messages: messages.slice(10, 20).map(at(0)) });
    await producer.send({ topic: TOPIC, messages: messages.slice(20).map(at(1)) });
  } finally {
    await producer.disconnect();
  }
  const after = await scrape();
  assert.equal(after.valueOf(MESSAGES_IN, { topic: TOPIC }), RECORDS);
  assert.equal((after.valueOf(MESSAGES_IN) ?? 0) - totalBefore, RECORDS);
  assert.equal(after.valueOf(TOTAL_PRODUCE, { topic: TOPIC }), 3);
  // Each batch carries at least its records' values.
  assert.ok((after.valueOf(BYTES_IN, { topic: TOPIC }) ?? 0) > RECORDS * VALUE.length);
  assert.equal(after.valueOf("kafka_server_brokertopicmetrics_failedproducerequests_total"), 0);
});

/** A message for `partition`. */
function at(partition: number) {
  return (message: { value: string; key: null }) => ({ ...message, partition });
}

test("consuming the records moves BytesOut by at least their bytes", async () => {
  const consumer = kafka.consumer({ groupId: "metered-readers" });
  await consumer.connect();
  let seen = 0;
  try {
    await consumer.subscribe({ topic: TOPIC, fromBeginning: true });
    const done = new Promise<void>((resolve) => {
      void consumer.run({
        eachMessage: async () => {
          seen++;
          if (seen === RECORDS) resolve();
        },
      });
    });
    await done;
  } finally {
    await consumer.disconnect();
  }
  const after = await scrape();
  assert.ok((after.valueOf(BYTES_OUT, { topic: TOPIC }) ?? 0) > RECORDS * VALUE.length);
  assert.ok((after.valueOf(TOTAL_FETCH, { topic: TOPIC }) ?? 0) >= 2);
  assert.equal(after.valueOf("kafka_server_brokertopicmetrics_failedfetchrequests_total"), 0);
});

test("a deleted topic's series go away, the totals stay", async () => {
  const totalBefore = (await scrape()).valueOf(MESSAGES_IN) ?? 0;
  await admin.deleteTopics({ topics: [TOPIC] });
  await pollUntil(
    async () =>
      (await scrape()).seriesOf(MESSAGES_IN, { topic: TOPIC }).length === 0 ? true : undefined,
    { deadlineMs: 30_000, intervalMs: 100, what: "the topic's series removed" },
  );
  assert.equal((await scrape()).valueOf(MESSAGES_IN), totalBefore);
});

test("requests are counted and timed per API with Kafka's names, errors by name", async () => {
  const before = await scrape();
  const client = { server: "client" };
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic: "timed", messages: [{ value: "one" }], acks: -1 });
    await producer.send({ topic: "timed", messages: [{ value: "two" }], acks: -1 });
  } finally {
    await producer.disconnect();
  }
  const after = await scrape();
  const gained = (name: string, labels: Record<string, string>): number =>
    after.sumOf(name, { ...client, ...labels }) - before.sumOf(name, { ...client, ...labels });
  assert.equal(after.typeOf("kafka_network_requestmetrics_totaltimems"), "histogram");
  // Produce requests are counted per version; kafkajs sent at least the two above.
  const produce = { request: "Produce" };
  assert.ok(gained("kafka_network_requestmetrics_requests_total", produce) >= 2);
  const parts = ["total", "requestqueue", "local", "remote", "responsequeue", "responsesend"];
  for (const part of parts) {
    const name = `kafka_network_requestmetrics_${part}timems_count`;
    assert.ok(gained(name, produce) >= 2, part);
  }
  const errors = { ...produce, error: "NONE" };
  assert.ok(gained("kafka_network_requestmetrics_errors_total", errors) >= 2);
  // Consumers' fetches are FetchConsumer, as Kafka names them.
  const consumerFetches = { ...client, request: "FetchConsumer" };
  assert.ok(after.sumOf("kafka_network_requestmetrics_totaltimems_count", consumerFetches) > 0);
  // The time's parts are within the total.
  const sum = (part: string): number =>
    after.sumOf(`kafka_network_requestmetrics_${part}timems_sum`, { ...client, ...produce });
  assert.ok(sum("local") + sum("remote") + sum("requestqueue") <= sum("total") + 1e-6);
});

test(
  "log, group, consumer lag, controller, raft and process families follow the node",
  {
    timeout: 60_000,
  },
  async () => {
    const topic = "lagging";
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
    const producer = kafka.producer();
    await producer.connect();
    try {
      const messages = Array.from({ length: 10 }, (_, index) => ({ value: `v${index}` }));
      await producer.send({ topic, messages });
    } finally {
      await producer.disconnect();
    }
    // The group commits offset 4: six records behind the log end.
    await admin.setOffsets({
      groupId: "laggards",
      topic,
      partitions: [{ partition: 0, offset: "4" }],
    });
    const labels = { topic, partition: "0" };
    const { value: scraped } = await pollUntil(
      async () => {
        const scraped = await scrape();
        const lag = scraped.valueOf("kafka_consumergroup_lag", {
          ...labels,
          consumergroup: "laggards",
        });
        return lag === 6 ? scraped : undefined;
      },
      { deadlineMs: 30_000, intervalMs: 100, what: "the group's lag of 6" },
    );
    assert.equal(scraped.valueOf("kafka_log_log_logendoffset", labels), 10);
    assert.equal(scraped.valueOf("kafka_log_log_logstartoffset", labels), 0);
    assert.equal(scraped.valueOf("kafka_log_log_numlogsegments", labels), 1);
    assert.ok((scraped.valueOf("kafka_log_log_size", labels) ?? 0) > 0);
    const group = { consumergroup: "laggards", topic };
    assert.equal(scraped.valueOf("kafka_consumergroup_lag_sum", group), 6);
    assert.equal(
      scraped.valueOf("kafka_consumergroup_current_offset", { ...group, partition: "0" }),
      4,
    );
    // metered-readers (from the consume test) and laggards: both classic groups, both Empty now.
    const groups = "kafka_server_groupcoordinatormetrics";
    assert.equal(scraped.valueOf(`${groups}_group_count`, { protocol: "classic" }), 2);
    assert.equal(scraped.valueOf(`${groups}_classic_group_count`, { state: "Empty" }), 2);
    assert.ok((scraped.valueOf(`${groups}_classic_group_rebalance_total`) ?? 0) >= 1);
    const controller = "kafka_controller_kafkacontroller";
    assert.equal(scraped.valueOf(`${controller}_activecontrollercount`), 1);
    assert.equal(scraped.valueOf(`${controller}_activebrokercount`), 1);
    assert.equal(scraped.valueOf(`${controller}_fencedbrokercount`), 0);
    assert.equal(scraped.valueOf(`${controller}_offlinepartitionscount`), 0);
    assert.equal(scraped.valueOf(`${controller}_preferredreplicaimbalancecount`), 0);
    // "lagging", "timed" (auto-created) and __consumer_offsets; "metered" was deleted.
    assert.equal(scraped.valueOf(`${controller}_globaltopiccount`), 3);
    assert.equal(scraped.valueOf(`${controller}_globalpartitioncount`), 50 + 1 + 1);
    assert.equal(scraped.valueOf("kafka_server_raftmetrics_current_leader"), 1);
    assert.equal(scraped.valueOf("kafka_server_raftmetrics_current_state", { state: "leader" }), 1);
    assert.ok((scraped.valueOf("kafka_server_raftmetrics_high_watermark") ?? 0) > 0);
    // A single voter leads: it appended the metadata records and committed each, and its own
    // election ended with a leader.
    assert.ok((scraped.valueOf("kafka_server_raftmetrics_append_records_total") ?? 0) > 0);
    assert.equal(scraped.valueOf("kafka_server_raftmetrics_fetch_records_total"), 0);
    assert.ok((scraped.valueOf("kafka_server_raftmetrics_commit_latency_ms_count") ?? 0) > 0);
    assert.equal(scraped.typeOf("kafka_server_raftmetrics_commit_latency_ms"), "histogram");
    assert.ok((scraped.valueOf("kafka_server_raftmetrics_election_latency_ms_count") ?? 0) >= 1);
    assert.ok((scraped.valueOf("process_open_fds") ?? 0) > 0);
    assert.ok((scraped.valueOf("process_resident_memory_bytes") ?? 0) > 0);
    assert.ok((scraped.valueOf("nodejs_heap_size_used_bytes") ?? 0) > 0);
    assert.equal(scraped.typeOf("nodejs_gc_duration_seconds"), "histogram");
    assert.equal(scraped.typeOf("process_cpu_user_seconds_total"), "counter");
  },
);

/** The replica fetchers' lag per partition: only a follower has it (replication-metrics test). */
const FOLLOWER_ONLY = new Set(["kafka_server_fetcherlagmetrics_consumerlag"]);

test("every family the Grafana dashboard queries is one the node exports", async () => {
  const path = join(import.meta.dirname, "..", "..", "..", "docs", "grafana", "sluice.json");
  const dashboard = readFileSync(path, "utf8");
  const used = new Set(dashboard.match(/\b(?:kafka|process|nodejs|sluice)_[a-z_]+\b/g) ?? []);
  assert.ok(used.size > 40, "the dashboard queries the families");
  const scraped = await scrape();
  for (const name of used) {
    if (FOLLOWER_ONLY.has(name)) continue;
    const family = name.replace(/_(bucket|sum|count)$/, "");
    const type = scraped.typeOf(name) ?? scraped.typeOf(family);
    assert.ok(type !== undefined, `the node exports ${name}`);
    if (family !== name && scraped.typeOf(name) === undefined) assert.equal(type, "histogram");
  }
});
