import { test } from "node:test";
import assert from "node:assert/strict";
import type { BrokerId } from "../../common/index.js";
import {
  applyOutput,
  broker,
  changeRecords,
  elrOn,
  imageOf,
  partition,
  partitionOf,
  topic,
  topicConfig,
  uuid,
} from "../partition-control.test-support.js";
import {
  handleBrokerFenced,
  handleBrokerShutdown,
  handleBrokerUncleanShutdown,
  handleBrokerUnfenced,
  handleBrokerUnregistered,
  handleOfflineLogDirs,
  movePartitionsAwayFrom,
} from "./broker-events.js";
import { describeElection } from "./election-report.js";
import { electionPartitionHooks } from "./election-hooks.js";
import { DEFAULT_REPLICATION_DEFAULTS } from "./topic-settings.js";

const FOO = uuid(1);
const BAR = uuid(2);
const b = (id: number) => id as BrokerId;

function threeBrokers(fenced: number[] = []) {
  return [1, 2, 3].map((id) => broker(id, { isFenced: fenced.includes(id) }));
}

test("fencing a leader moves leadership to the next ISR member and drops it from every ISR", () => {
  const image = imageOf([
    ...threeBrokers(),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2, 3] }),
    partition(FOO, 1, { replicas: [2, 1, 3] }),
    partition(FOO, 2, { replicas: [2, 3] }),
  ]);
  const changes = handleBrokerFenced(image, b(1));
  const data = changeRecords(changes.records);
  assert.deepEqual(
    data.map((record) => [record.partitionId, record.leader, record.isr]),
    [
      [0, 2, [2, 3]],
      [1, -2, [2, 3]],
    ],
  );
  assert.equal(changes.elections.length, 1, "only partition 0 changed leader");
  assert.match(
    describeElection(changes.elections[0]!),
    /broker 1 fenced.*outcome isr, leader 1 -> 2/,
  );
  const after = applyOutput(image, changes.records);
  assert.equal(partitionOf(after, FOO, 0).leaderEpoch, 6);
});

test("controlled shutdown and unregistration move leadership the same way", () => {
  const image = imageOf([
    ...threeBrokers(),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2] }),
  ]);
  for (const changes of [
    handleBrokerShutdown(image, b(1)),
    handleBrokerUnregistered(image, b(1)),
  ]) {
    const [record] = changeRecords(changes.records);
    assert.equal(record?.leader, 2);
    assert.deepEqual(record?.isr, [2]);
  }
  const reason = movePartitionsAwayFrom(image, b(1), "controlledShutdown").elections[0]?.trigger;
  assert.equal(reason, "broker 1 controlledShutdown");
});

test("fencing the only ISR member without ELR leaves it in the ISR, leaderless", () => {
  const image = imageOf([
    ...threeBrokers(),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2], isr: [1] }),
  ]);
  const [record] = changeRecords(handleBrokerFenced(image, b(1)).records);
  assert.equal(record?.leader, -1);
  assert.equal(record?.isr, null);
});

test("unfencing a broker elects it where a leaderless partition can have it", () => {
  const image = imageOf([
    ...threeBrokers([1, 2]),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2], isr: [1], leader: -1 }),
    partition(FOO, 1, { replicas: [2, 3], isr: [2], leader: -1 }),
  ]);
  const changes = handleBrokerUnfenced(image, b(1));
  const data = changeRecords(changes.records);
  assert.deepEqual(
    data.map((record) => [record.partitionId, record.leader]),
    [[0, 1]],
  );
  assert.equal(changes.elections[0]?.outcome, "isr");
});

test("offline log dirs take the replicas on them out of ISRs and leaderships", () => {
  const image = imageOf([
    broker(1, { directories: [uuid(71), uuid(72)] }),
    broker(2),
    topic("foo", FOO),
    topic("bar", BAR),
    partition(FOO, 0, { replicas: [1, 2], directories: [uuid(71), uuid(0)] }),
    partition(BAR, 0, { replicas: [1, 2], directories: [uuid(72), uuid(0)] }),
  ]);
  const changes = handleOfflineLogDirs(image, b(1), [uuid(71), uuid(99)]);
  const data = changeRecords(changes.records);
  assert.deepEqual(
    data.map((record) => [record.topicId, record.leader, record.isr]),
    [[FOO, 2, [2]]],
  );
  assert.equal(handleOfflineLogDirs(image, b(1), [uuid(99)]).records.length, 0);
  assert.equal(handleOfflineLogDirs(image, b(7), [uuid(71)]).records.length, 0);
});

test("an unclean restart takes the broker out of the ISR and ELR when ELR is on", () => {
  const state = { replicas: [1, 2, 3], isr: [1], elr: [2] };
  const records = [
    ...threeBrokers(),
    topic("foo", FOO),
    topicConfig("foo", "min.insync.replicas", "2"),
  ];
  const withoutElr = imageOf([...records, partition(FOO, 0, state)]);
  assert.equal(handleBrokerUncleanShutdown(withoutElr, b(2)).records.length, 0);
  const image = imageOf([...records, elrOn(), partition(FOO, 0, state)]);
  const [record] = changeRecords(handleBrokerUncleanShutdown(image, b(2)).records);
  assert.deepEqual(record?.eligibleLeaderReplicas, []);
});

test("the unclean election of a broker event requires the topic's consent", () => {
  const base = [
    ...threeBrokers([2]),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2], isr: [1] }),
  ];
  const strict = imageOf(base);
  assert.equal(changeRecords(handleBrokerFenced(strict, b(1)).records)[0]?.leader, -1);
  const lenient = imageOf([
    ...base,
    topicConfig("foo", "unclean.leader.election.enable", "true"),
    broker(2),
  ]);
  const [record] = changeRecords(handleBrokerFenced(lenient, b(1)).records);
  assert.equal(record?.leader, 2);
  assert.deepEqual(record?.isr, [2]);
  assert.equal(record?.leaderRecoveryState, 1);
});

test("the membership hooks return the records and pass on the elections", () => {
  const image = imageOf([
    ...threeBrokers(),
    topic("foo", FOO),
    partition(FOO, 0, { replicas: [1, 2] }),
  ]);
  const reports: string[] = [];
  const hooks = electionPartitionHooks(DEFAULT_REPLICATION_DEFAULTS, (report) =>
    reports.push(describeElection(report)),
  );
  assert.equal(changeRecords(hooks.brokerFenced(image, b(1)))[0]?.leader, 2);
  assert.equal(changeRecords(hooks.brokerShuttingDown(image, b(1)))[0]?.leader, 2);
  assert.equal(hooks.brokerUnfenced(image, b(1)).length, 0);
  assert.equal(hooks.logDirsOffline(image, b(1), [uuid(3)]).length, 0);
  assert.equal(reports.length, 2);
});
