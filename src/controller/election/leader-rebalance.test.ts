import { test } from "node:test";
import assert from "node:assert/strict";
import {
  broker,
  changeRecords,
  imageOf,
  partition,
  topic,
  uuid,
} from "../partition-control.test-support.js";
import {
  DEFAULT_LEADER_REBALANCE_SETTINGS,
  leaderImbalanceCheckIntervalMs,
  preferredLeaderRebalance,
} from "./leader-rebalance.js";

const FOO = uuid(1);

function partitions(count: number, notLed: number) {
  return Array.from({ length: count }, (_, index) =>
    partition(FOO, index, { replicas: [1, 2], leader: index < notLed ? 2 : 1 }),
  );
}

test("a broker above the imbalance threshold gets its preferred leaderships back", () => {
  const image = imageOf([broker(1), broker(2), topic("foo", FOO), ...partitions(10, 2)]);
  const result = preferredLeaderRebalance(image);
  assert.deepEqual(
    changeRecords(result.records).map((record) => [record.partitionId, record.leader]),
    [
      [0, 1],
      [1, 1],
    ],
  );
  assert.deepEqual(result.response.imbalances[0], {
    brokerId: 1,
    preferredPartitions: 10,
    notLedPartitions: 2,
    isAboveThreshold: true,
  });
  assert.equal(result.response.hasMore, false);
  assert.equal(result.elections[0]?.trigger, "leader imbalance of broker 1");
});

test("an imbalance at or below the threshold, or a disabled rebalance, elects nothing", () => {
  const image = imageOf([broker(1), broker(2), topic("foo", FOO), ...partitions(10, 1)]);
  assert.equal(preferredLeaderRebalance(image).records.length, 0, "10% is not above 10%");
  const imbalanced = imageOf([broker(1), broker(2), topic("foo", FOO), ...partitions(10, 5)]);
  const disabled = { ...DEFAULT_LEADER_REBALANCE_SETTINGS, autoLeaderRebalanceEnable: false };
  const result = preferredLeaderRebalance(imbalanced, disabled);
  assert.equal(result.records.length, 0);
  assert.equal(result.response.imbalances[0]?.isAboveThreshold, true);
});

test("a preferred replica that is fenced, outside the ISR or being reassigned is skipped", () => {
  const image = imageOf([
    broker(1),
    broker(2),
    broker(3, { isFenced: true }),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2], isr: [2], leader: 2 }),
    partition(FOO, 1, { replicas: [3, 2], leader: 2 }),
    partition(FOO, 2, { replicas: [1, 2, 3], leader: 2, adding: [3] }),
  ]);
  assert.equal(preferredLeaderRebalance(image).records.length, 0);
});

test("the elections of one check are capped and the driver is told to check again", () => {
  const image = imageOf([broker(1), broker(2), topic("foo", FOO), ...partitions(5, 5)]);
  const settings = { ...DEFAULT_LEADER_REBALANCE_SETTINGS, electionsPerCheckMax: 3 };
  const result = preferredLeaderRebalance(image, settings);
  assert.equal(result.records.length, 3);
  assert.equal(result.response.hasMore, true);
  assert.equal(leaderImbalanceCheckIntervalMs(DEFAULT_LEADER_REBALANCE_SETTINGS), 300_000);
});
