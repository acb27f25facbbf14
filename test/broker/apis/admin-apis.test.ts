import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../../src/common/index.js";
import { FileSystemError } from "../../../src/ports/index.js";
import {
  configRecord,
  partitionRecord,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { TOPIC_ID } from "../../replication/fixtures.js";
import { at, startBroker } from "./harness.js";
import { fetchRequest, produceRequest } from "./requests.js";

const TOPIC = 2;
const BROKER = 4;
const BROKER_LOGGER = 8;
const TOPIC_CONFIG_SOURCE = 1;
const DEFAULT_CONFIG_SOURCE = 5;

test("DescribeLogDirs: KAFKA_STORAGE_ERROR for an offline dir, sizes for the other", async () => {
  const broker = await startBroker({ seed: 601, logDirs: ["/data/a", "/data/b"] });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  broker.logManager.reportIoError("/data/b", new FileSystemError("EIO", "write", "/data/b/x"));
  const body = await broker.call(35, 3, { topics: null });
  const results = at(body, "results") as Record<string, unknown>[];
  assert.deepEqual(
    results.map((result) => [result["logDir"], result["errorCode"]]),
    [
      ["/data/a", ErrorCode.NONE],
      ["/data/b", ErrorCode.KAFKA_STORAGE_ERROR],
    ],
  );
  assert.deepEqual(results[1]?.["topics"], []);
  const online = results[0]?.["topics"] as { name: string }[];
  assert.ok(online.every((topic) => topic.name === "orders"));
});

test("DescribeLogDirs v4: the volume's total and usable bytes, -1 for an offline dir", async () => {
  const capacityBytes = 64 << 20;
  const broker = await startBroker({ seed: 604, logDirs: ["/data/a", "/data/b"], capacityBytes });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  await broker.call(0, 11, produceRequest({ acks: 1 }));
  broker.logManager.reportIoError("/data/b", new FileSystemError("EIO", "write", "/data/b/x"));
  const body = await broker.call(35, 4, { topics: null });
  const results = at(body, "results") as Record<string, number | string>[];
  const [online, offline] = results;
  assert.equal(online?.["totalBytes"], capacityBytes);
  const usable = Number(online?.["usableBytes"]);
  assert.ok(usable > 0 && usable < capacityBytes, `usable bytes ${usable} count what is used`);
  assert.deepEqual(
    [offline?.["errorCode"], offline?.["totalBytes"], offline?.["usableBytes"]],
    [ErrorCode.KAFKA_STORAGE_ERROR, -1, -1],
  );
  const unlimited = await startBroker({ seed: 605 });
  const unknown = await unlimited.call(35, 4, { topics: null });
  assert.equal(at(unknown, "results", 0, "totalBytes"), -1, "a disk that cannot tell its size");
});

test("DescribeConfigs shows a topic override and the defaults with sources", async () => {
  const broker = await startBroker({ seed: 602 });
  await broker.publish([
    topicRecord("orders", TOPIC_ID),
    partitionRecord(TOPIC_ID, 0, [1]),
    configRecord(TOPIC, "orders", "retention.ms", "60000"),
  ]);
  const describe = (resourceType: number, resourceName: string) =>
    broker.call(32, 4, {
      resources: [{ resourceType, resourceName, configurationKeys: null }],
      includeSynonyms: false,
      includeDocumentation: false,
    });
  const topic = await describe(TOPIC, "orders");
  assert.equal(at(topic, "results", 0, "errorCode"), ErrorCode.NONE);
  const configs = new Map(
    (
      at(topic, "results", 0, "configs") as { name: string; value: string; configSource: number }[]
    ).map((config) => [config.name, config]),
  );
  assert.equal(configs.get("retention.ms")?.value, "60000");
  assert.equal(configs.get("retention.ms")?.configSource, TOPIC_CONFIG_SOURCE);
  assert.equal(configs.get("cleanup.policy")?.value, "delete");
  assert.equal(configs.get("cleanup.policy")?.configSource, DEFAULT_CONFIG_SOURCE);
  const ofBroker = await describe(BROKER, "1");
  assert.equal(at(ofBroker, "results", 0, "errorCode"), ErrorCode.NONE);
  assert.ok((at(ofBroker, "results", 0, "configs") as unknown[]).length > 0);
  const unknown = await describe(TOPIC, "missing");
  assert.equal(at(unknown, "results", 0, "errorCode"), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
});

test("config changes refuse BROKER_LOGGER on the broker and forward the rest", async () => {
  const broker = await startBroker({ seed: 603 });
  broker.forwarder.answer = (_apiKey, body) => ({
    kind: "response",
    body: {
      throttleTimeMs: 0,
      responses: (
        body as { resources: { resourceType: number; resourceName: string }[] }
      ).resources.map(({ resourceType, resourceName }) => ({
        errorCode: 0,
        errorMessage: null,
        resourceType,
        resourceName,
      })),
    },
  });
  const resource = (resourceType: number, resourceName: string) => ({
    resourceType,
    resourceName,
    configs: [{ name: "retention.ms", configOperation: 0, value: "1000" }],
  });
  const request = {
    resources: [resource(BROKER_LOGGER, "1"), resource(TOPIC, "orders")],
    validateOnly: false,
  };
  const body = await broker.call(44, 1, request);
  const answers = (at(body, "responses") as Record<string, unknown>[]).map((answer) => [
    answer["resourceType"],
    answer["errorCode"],
  ]);
  assert.deepEqual(answers, [
    [BROKER_LOGGER, ErrorCode.INVALID_REQUEST],
    [TOPIC, ErrorCode.NONE],
  ]);
  const forwarded = broker.forwarder.sent[0]?.body as { resources: unknown[] };
  assert.equal(forwarded.resources.length, 1, "only the topic went to the controller");
  const onlyLoggers = { resources: [resource(BROKER_LOGGER, "1")], validateOnly: false };
  const refused = await broker.call(44, 0, onlyLoggers);
  assert.equal(at(refused, "responses", 0, "errorCode"), ErrorCode.INVALID_REQUEST);
  assert.equal(broker.forwarder.sent.length, 1, "nothing forwarded for loggers alone");
});

test("a failed forward answers with the controller's error response at every version", async () => {
  const broker = await startBroker({ seed: 604 });
  for (let version = 0; version <= 7; version++) {
    const body = await broker.call(19, version, {
      topics: [{ name: "t", numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 1000,
      validateOnly: false,
    });
    assert.equal(at(body, "topics", 0, "name"), "t", `v${version}`);
    assert.equal(at(body, "topics", 0, "errorCode"), 7, `v${version}`);
  }
});

test("a full session cache evicts a session idle past the eviction time", async () => {
  const broker = await startBroker({ seed: 605, sessionSlots: 1 });
  await broker.publish([topicRecord("orders", TOPIC_ID), partitionRecord(TOPIC_ID, 0, [1])]);
  const newSession = { ...fetchRequest([{ partition: 0, fetchOffset: 0 }]), sessionEpoch: 0 };
  const first = at(await broker.call(1, 11, newSession), "sessionId") as number;
  assert.ok(first > 0);
  assert.equal(at(await broker.call(1, 11, newSession), "sessionId"), 0, "not idle yet: kept");
  const { timers } = broker.harness.node;
  const idleMs = broker.fetchSessions.evictionMs + 1;
  await broker.harness.run(new Promise<void>((resolve) => timers.schedule(idleMs, resolve)));
  const second = at(await broker.call(1, 11, newSession), "sessionId") as number;
  assert.ok(second > 0 && second !== first);
  assert.equal(broker.fetchSessions.get(first), undefined);
  assert.equal(broker.fetchSessions.evictionCount, 1);
});
