import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../common/index.js";
import type { BrokerId } from "../common/index.js";
import { decodeMetadataRecord, MetadataRecordType } from "../protocol/index.js";
import type { BrokerRegistrationResponse, CreateTopicsResponse } from "../protocol/index.js";
import { brokerRegistrationApi, createTopicsApi, describeConfigsApi } from "./apis/index.js";
import {
  activate,
  brokerRegistrationInput,
  call,
  heartbeat,
  newHarness,
  registerUnfencedBroker,
  send,
} from "./quorum/controller-harness.test-support.js";
import { flushPromises } from "./quorum/quorum.test-support.js";

const ACTIVE_CONTROLLERS = "kafka_controller_kafkacontroller_activecontrollercount";

const CREATE_TOPICS_VERSION = 7;

function createTopic(name: string) {
  return {
    topics: [{ name, numPartitions: 2, replicationFactor: 1, assignments: [], configs: [] }],
    timeoutMs: 1000,
    validateOnly: false,
  };
}

/** Tracks whether a promise settled, without awaiting it. */
function watch<T>(promise: Promise<T>): { readonly isSettled: () => boolean } {
  let isSettled = false;
  void promise.then(() => (isSettled = true));
  return { isSettled: () => isSettled };
}

test("a new controller claims its epoch with a NoOpRecord, then bootstraps", async () => {
  const harness = newHarness();
  harness.raft.elect(1, 1);
  await flushPromises();
  assert.equal(harness.controller.currentState.kind, "activating");
  const [claim] = harness.raft.uncommittedBatches;
  assert.ok(claim !== undefined);
  assert.equal(claim.baseOffset, 1, "the LeaderChange control record took offset 0");
  assert.equal(decodeMetadataRecord(claim.records[0]!).type, MetadataRecordType.NoOpRecord);
  harness.raft.commit();
  await flushPromises();
  const [bootstrap] = harness.raft.uncommittedBatches;
  assert.equal(
    decodeMetadataRecord(bootstrap!.records[0]!).type,
    MetadataRecordType.FeatureLevelRecord,
  );
  assert.equal(harness.controller.isActive, false);
  harness.raft.commit();
  await flushPromises();
  assert.equal(harness.controller.isActive, true);
  assert.equal(harness.metrics.gauges.get(ACTIVE_CONTROLLERS), 1);
});

test("operations wait while the controller activates", async () => {
  const harness = newHarness();
  harness.raft.elect(1, 1);
  const waiting = watch(send(harness, describeConfigsApi, 4, { resources: [] }));
  await flushPromises();
  assert.equal(waiting.isSettled(), false, "no answer before the claim commits");
  harness.raft.commit();
  await flushPromises();
  assert.equal(waiting.isSettled(), false, "no answer before the bootstrap commits");
  harness.raft.commit();
  await flushPromises();
  assert.equal(waiting.isSettled(), true);
});

test("a follower refuses with NOT_CONTROLLER naming the leader", async () => {
  const harness = newHarness();
  harness.raft.elect(2, 1);
  const response = (await send(
    harness,
    createTopicsApi,
    CREATE_TOPICS_VERSION,
    createTopic("t"),
  )) as CreateTopicsResponse;
  assert.equal(response.topics[0]?.errorCode, ErrorCode.NOT_CONTROLLER);
  assert.match(response.topics[0]?.errorMessage ?? "", /node 2/);
});

test("CreateTopics answers after its records commit, into the image", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 1);
  const answer = send(harness, createTopicsApi, CREATE_TOPICS_VERSION, createTopic("orders"));
  const answered = watch(answer);
  await flushPromises();
  assert.equal(answered.isSettled(), false);
  assert.ok(harness.controller.latestImage.topics.byName.has("orders"));
  assert.equal(harness.controller.committedImage.topics.byName.has("orders"), false);
  harness.raft.commit();
  await flushPromises();
  const response = (await answer) as CreateTopicsResponse;
  assert.equal(response.topics[0]?.errorCode, ErrorCode.NONE);
  const topic = harness.controller.committedImage.topics.byName.get("orders");
  assert.equal(topic?.partitions.size, 2);
  assert.equal(topic?.id, response.topics[0]?.topicId);
});

test("a second CreateTopics of the same name queued behind the first fails", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 1);
  const first = send(harness, createTopicsApi, CREATE_TOPICS_VERSION, createTopic("dup"));
  const second = send(harness, createTopicsApi, CREATE_TOPICS_VERSION, createTopic("dup"));
  const secondAnswered = watch(second);
  await flushPromises();
  assert.equal(harness.raft.uncommittedBatches.length, 1, "only the first proposes records");
  assert.equal(secondAnswered.isSettled(), false, "the refusal waits for the earlier write");
  harness.raft.commit();
  await flushPromises();
  const [firstResponse, secondResponse] = (await Promise.all([
    first,
    second,
  ])) as CreateTopicsResponse[];
  assert.equal(firstResponse?.topics[0]?.errorCode, ErrorCode.NONE);
  assert.equal(secondResponse?.topics[0]?.errorCode, ErrorCode.TOPIC_ALREADY_EXISTS);
});

test("losing leadership fails uncommitted operations and reverts the image", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 1);
  const answer = send(harness, createTopicsApi, CREATE_TOPICS_VERSION, createTopic("lost"));
  const queued = send(harness, createTopicsApi, CREATE_TOPICS_VERSION, createTopic("queued"));
  await flushPromises();
  assert.ok(harness.controller.latestImage.topics.byName.has("lost"));
  harness.raft.elect(2, 2);
  await flushPromises();
  for (const response of (await Promise.all([answer, queued])) as CreateTopicsResponse[]) {
    assert.equal(response.topics[0]?.errorCode, ErrorCode.NOT_CONTROLLER);
  }
  assert.equal(harness.controller.latestImage.topics.byName.has("lost"), false);
  assert.equal(harness.controller.latestImage, harness.controller.committedImage);
  assert.equal(harness.metrics.gauges.get(ACTIVE_CONTROLLERS), 0);
});

test("a controller elected again serves only after the new epoch's claim commits", async () => {
  const harness = newHarness();
  await activate(harness);
  harness.raft.elect(2, 2);
  harness.raft.elect(1, 3);
  await flushPromises();
  const answer = watch(send(harness, describeConfigsApi, 4, { resources: [] }));
  await flushPromises();
  assert.equal(answer.isSettled(), false);
  const [claim] = harness.raft.uncommittedBatches;
  assert.equal(claim?.epoch, 3);
  assert.equal(decodeMetadataRecord(claim.records[0]!).type, MetadataRecordType.NoOpRecord);
  harness.raft.commit();
  await flushPromises();
  assert.equal(answer.isSettled(), true);
  assert.equal(harness.raft.uncommittedBatches.length, 0, "no second bootstrap");
});

test("a broker's epoch is the offset of its RegisterBrokerRecord", async () => {
  const harness = newHarness();
  await activate(harness);
  const epoch = await registerUnfencedBroker(harness, 7);
  const batch = harness.raft.proposals.find((proposal) =>
    proposal.batch.records.some(
      (bytes) => decodeMetadataRecord(bytes).type === MetadataRecordType.RegisterBrokerRecord,
    ),
  )?.batch;
  assert.equal(batch?.baseOffset, epoch);
});

test("a heartbeat of a caught-up broker unfences it", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 3);
  const broker = harness.controller.committedImage.cluster.brokers.get(3 as BrokerId);
  assert.equal(broker?.isFenced, false);
  const response = await heartbeat(harness, 3, broker.epoch);
  assert.equal(response.isFenced, false);
  assert.equal(response.errorCode, ErrorCode.NONE);
});

test("the liveness scan fences a silent broker within session timeout plus a tick", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 4);
  const lastHeartbeatMs = harness.timers.monotonicMs();
  const sessionTimeoutMs = harness.controller.settings.cluster.sessionTimeoutMs;
  const tickMs = harness.controller.settings.livenessScanIntervalMs;
  let fencedAtMs: number | undefined;
  for (let nowMs = lastHeartbeatMs + 100; nowMs <= lastHeartbeatMs + 20_000; nowMs += 100) {
    await harness.timers.advanceTo(nowMs);
    harness.raft.commit();
    await flushPromises();
    if (harness.controller.committedImage.cluster.brokers.get(4 as BrokerId)?.isFenced === true) {
      fencedAtMs = nowMs;
      break;
    }
  }
  assert.ok(fencedAtMs !== undefined, "the broker was fenced");
  assert.ok(fencedAtMs > lastHeartbeatMs + sessionTimeoutMs, `fenced early, at ${fencedAtMs}`);
  assert.ok(fencedAtMs <= lastHeartbeatMs + sessionTimeoutMs + tickMs, `late, at ${fencedAtMs}`);
  assert.equal(harness.metrics.gauges.get("kafka_controller_kafkacontroller_fencedbrokercount"), 1);
});

test("a broker that keeps heartbeating is never fenced", async () => {
  const harness = newHarness();
  await activate(harness);
  const epoch = await registerUnfencedBroker(harness, 5);
  for (let nowMs = 2000; nowMs <= 30_000; nowMs += 2000) {
    await harness.timers.advanceTo(nowMs);
    await heartbeat(harness, 5, epoch);
  }
  assert.equal(
    harness.controller.committedImage.cluster.brokers.get(5 as BrokerId)?.isFenced,
    false,
  );
});

test("a snapshot is asked for once the loader says one is due", async () => {
  const harness = newHarness({ maxBytesBetweenSnapshots: 1 });
  await activate(harness);
  await harness.timers.advanceTo(1000);
  const [snapshot] = harness.raft.snapshots;
  const committed = harness.controller.committedImage;
  assert.equal(snapshot?.endOffset, committed.provenance.lastContainedOffset + 1);
  assert.ok((snapshot?.records.length ?? 0) > 0);
});

test("the operation latency is measured per operation", async () => {
  const harness = newHarness();
  await activate(harness);
  await call(harness, describeConfigsApi, 4, { resources: [] });
  const labels = JSON.stringify({ operation: "DescribeConfigs" });
  const key = `sluice_controller_operation_latency_ms${labels}`;
  assert.deepEqual(harness.metrics.observations.get(key), [0]);
});

test("a registration refused at a stale offset writes nothing, and its retry lands", async () => {
  const harness = newHarness();
  await activate(harness);
  // A control record of Raft's own (a voters change) takes an offset the controller never saw.
  harness.raft.appendControlRecord();
  const proposed = harness.raft.proposals.length;
  const input = brokerRegistrationInput(1);
  const refused = await call<BrokerRegistrationResponse>(harness, brokerRegistrationApi, 3, input);
  assert.equal(refused.errorCode, ErrorCode.NOT_CONTROLLER);
  assert.equal(harness.raft.proposals.length, proposed, "the refused registration wrote nothing");
  assert.equal(harness.controller.latestImage.cluster.brokers.has(1 as BrokerId), false);
  assert.equal(harness.controller.brokerHeartbeats.contactOf(1 as BrokerId), undefined);
  const retried = await call<BrokerRegistrationResponse>(harness, brokerRegistrationApi, 3, input);
  assert.equal(retried.errorCode, ErrorCode.NONE);
  const registered = harness.raft.proposals.at(-1)?.batch;
  assert.equal(retried.brokerEpoch, registered?.baseOffset, "the epoch is the record's offset");
  assert.ok(harness.controller.committedImage.cluster.brokers.has(1 as BrokerId));
});
