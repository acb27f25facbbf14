import { test } from "node:test";
import assert from "node:assert/strict";
import type { BrokerId } from "../../common/index.js";
import {
  applyOutput,
  broker,
  config,
  elrOn,
  ids,
  imageOf,
  partition,
  partitionOf,
  topic,
  topicConfig,
  uuid,
} from "../partition-control.test-support.js";
import type { TestPartition } from "../partition-control.test-support.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { changePartition } from "./partition-changes.js";
import type { PartitionChangeRequest } from "./partition-changes.js";
import { DEFAULT_REPLICATION_DEFAULTS } from "./topic-settings.js";

const FOO = uuid(1);

function cluster(state: TestPartition, extra: MetadataRecord[] = [], fenced: number[] = []) {
  const brokers = [1, 2, 3, 4].map((id) => broker(id, { isFenced: fenced.includes(id) }));
  return imageOf([...brokers, topic("foo", FOO), partition(FOO, 0, state), ...extra]);
}

function change(image: MetadataImage, request: Omit<PartitionChangeRequest, "trigger">) {
  const topicImage = image.topics.byId.get(FOO);
  assert.ok(topicImage);
  const result = changePartition({
    image,
    defaults: DEFAULT_REPLICATION_DEFAULTS,
    topic: topicImage,
    partitionId: 0,
    request: { trigger: "test", ...request },
  });
  assert.ok(result);
  return result;
}

test("a change that changes nothing writes no record", () => {
  const image = cluster({ replicas: [1, 2, 3] });
  const result = change(image, { targetIsr: ids(1, 2, 3) });
  assert.equal(result.record, undefined);
  assert.equal(result.election.outcome, "kept");
});

test("an ISR shrink keeping the leader writes the ISR and bumps only the partition epoch", () => {
  const image = cluster({ replicas: [1, 2, 3] });
  const result = change(image, { targetIsr: ids(1, 2) });
  assert.deepEqual(result.record?.isr, [1, 2]);
  assert.equal(result.record?.leader, -2);
  assert.equal(result.record?.replicas, null);
  assert.equal(result.partition.leaderEpoch, 5);
  assert.equal(result.partition.partitionEpoch, 11);
});

test("a leader leaving the ISR is replaced by the first eligible ISR member in order", () => {
  const image = cluster({ replicas: [1, 2, 3], isr: [1, 3, 2] }, [], [2]);
  const result = change(image, { targetIsr: ids(3, 2), overrides: { leaving: 1 as BrokerId } });
  assert.equal(result.record?.leader, 3, "broker 2 is fenced, so 3 leads");
  assert.equal(result.election.outcome, "isr");
  assert.equal(result.partition.leaderEpoch, 6);
  const states = result.election.candidates.map((candidate) => candidate.state);
  assert.deepEqual(states, ["leaving", "fenced", "active"]);
});

test("without ELR the last ISR member stays in the ISR and the partition goes leaderless", () => {
  const image = cluster({ replicas: [1, 2], isr: [1] });
  const result = change(image, { targetIsr: ids(), overrides: { leaving: 1 as BrokerId } });
  assert.equal(result.record?.leader, -1);
  assert.equal(result.record?.isr, null, "the ISR keeps broker 1");
  assert.equal(result.election.outcome, "none");
  assert.deepEqual(result.partition.isr, [1]);
});

test("an unclean election happens only where the topic allows it, and marks recovery", () => {
  const state = { replicas: [1, 2], isr: [1], leader: -1 };
  const strict = change(cluster(state, [], [1]), {});
  assert.equal(strict.record, undefined, "broker 2 is outside the ISR");
  const lenient = cluster(
    state,
    [topicConfig("foo", "unclean.leader.election.enable", "true")],
    [1],
  );
  const result = change(lenient, {});
  assert.equal(result.record?.leader, 2);
  assert.deepEqual(result.record?.isr, [2]);
  assert.equal(result.record?.leaderRecoveryState, 1);
  assert.equal(result.election.outcome, "unclean");
  assert.equal(result.election.mode, "unclean");
});

test("the cluster-wide default enables unclean election unless the topic says otherwise", () => {
  const state = { replicas: [1, 2], isr: [1], leader: -1 };
  const clusterWide = config(4, "", "unclean.leader.election.enable", "true");
  const everywhere = cluster(state, [clusterWide], [1]);
  assert.equal(change(everywhere, {}).record?.leader, 2);
  const overridden = imageOf(
    [topicConfig("foo", "unclean.leader.election.enable", "false")],
    everywhere,
  );
  assert.equal(change(overridden, {}).record, undefined);
});

test("with ELR, an ISR shrinking below min ISR keeps the leavers eligible", () => {
  const extra = [elrOn(), topicConfig("foo", "min.insync.replicas", "2")];
  const image = cluster({ replicas: [1, 2, 3] }, extra);
  const result = change(image, { targetIsr: ids(1), overrides: { leaving: 2 as BrokerId } });
  assert.deepEqual(result.record?.isr, [1]);
  assert.deepEqual(result.record?.eligibleLeaderReplicas, [2, 3]);
  assert.equal(result.record?.lastKnownElr, null);
});

test("with ELR, losing the last ISR member empties the ISR and remembers the last leader", () => {
  const extra = [elrOn(), topicConfig("foo", "min.insync.replicas", "2")];
  const image = cluster({ replicas: [1, 2, 3], isr: [1], elr: [2, 3] }, extra, [2, 3]);
  const result = change(image, { targetIsr: ids(), overrides: { leaving: 1 as BrokerId } });
  assert.deepEqual(result.record?.isr, []);
  assert.equal(result.record?.leader, -1);
  assert.deepEqual(result.record?.eligibleLeaderReplicas, [1, 2, 3]);
  assert.deepEqual(result.record?.lastKnownElr, [1]);
});

test("with ELR, an eligible leader replica leads an empty ISR and becomes the ISR", () => {
  const extra = [elrOn(), topicConfig("foo", "min.insync.replicas", "2")];
  const state = { replicas: [1, 2, 3], isr: [], leader: -1, elr: [1, 2, 3], lastKnownElr: [1] };
  const image = cluster(state, extra, [1]);
  const result = change(image, { overrides: { joining: 3 as BrokerId } });
  assert.equal(result.record?.leader, 2);
  assert.equal(result.election.outcome, "elr");
  assert.deepEqual(result.record?.isr, [2]);
  assert.deepEqual(result.record?.eligibleLeaderReplicas, [1, 3]);
  assert.deepEqual(result.record?.lastKnownElr, [], "a leader again: the memory is cleared");
});

test("with ELR, the last known leader may lead again only once it is eligible", () => {
  const extra = [elrOn(), topicConfig("foo", "min.insync.replicas", "2")];
  const state = { replicas: [1, 2], isr: [], leader: -1, elr: [], lastKnownElr: [1] };
  const fenced = change(cluster(state, extra, [1]), {});
  assert.equal(fenced.record, undefined, "a fenced last leader is never elected");
  const back = change(cluster(state, extra), {});
  assert.equal(back.record?.leader, 1);
  assert.equal(back.election.outcome, "lastKnownLeader");
  assert.deepEqual(back.record?.isr, [1]);
  assert.equal(back.record?.leaderRecoveryState, 1);
});

test("a replica whose log dir is offline cannot lead", () => {
  const dirs = [uuid(71), uuid(72)];
  const brokers = [broker(1, { isFenced: true }), broker(2, { directories: [uuid(99)] })];
  const state = { replicas: [1, 2], leader: -1, directories: dirs };
  const image = imageOf([...brokers, topic("foo", FOO), partition(FOO, 0, state)]);
  const result = change(image, {});
  assert.equal(result.record, undefined);
  assert.equal(result.election.candidates[1]?.state, "directoryOffline");
});

test("removing replicas bumps the leader epoch even when the leader stays", () => {
  const image = cluster({ replicas: [1, 2, 3, 4], removing: [4] });
  const result = change(image, { targetIsr: ids(1, 2, 3) });
  assert.deepEqual(result.record?.replicas, [1, 2, 3], "the reassignment completes");
  assert.deepEqual(result.record?.removingReplicas, []);
  assert.equal(result.record?.leader, 1);
  assert.equal(result.partition.leaderEpoch, 6);
  const next = partitionOf(
    applyOutput(image, [{ type: 5, version: 2, data: result.record! }]),
    FOO,
    0,
  );
  assert.deepEqual(next.replicas, [1, 2, 3]);
});

test("a preferred election moves leadership to the first replica when it is in the ISR", () => {
  const image = cluster({ replicas: [1, 2, 3], leader: 2 });
  const result = change(image, { mode: "preferred" });
  assert.equal(result.record?.leader, 1);
  assert.equal(result.election.outcome, "preferred");
  const notInIsr = change(cluster({ replicas: [1, 2, 3], isr: [2, 3], leader: 2 }), {
    mode: "preferred",
  });
  assert.equal(notInIsr.record, undefined, "the current leader stays");
});

test("a recovering leader may declare itself recovered", () => {
  const image = cluster({ replicas: [1, 2], isr: [1], isRecovering: true });
  const result = change(image, { targetLeaderRecoveryState: "recovered" });
  assert.equal(result.record?.leaderRecoveryState, 0);
  assert.equal(result.partition.leaderRecoveryState, "recovered");
});
