import { test } from "node:test";
import assert from "node:assert/strict";
import type { Uuid } from "../common/index.js";
import { EMPTY_IMAGE } from "./images.js";
import { MetadataDelta } from "./metadata-delta.js";
import { partitionChange, partitionRecord, testUuid, topicRecord } from "./records.test-support.js";

const TOPICS = 1000;
const PARTITIONS_PER_TOPIC = 100;

test("one changed partition of 100,000 leaves every other topic and partition shared", () => {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  const template = partitionRecord(testUuid(1), 0, [1, 2, 3]);
  for (let topic = 0; topic < TOPICS; topic++) {
    const topicId = testUuid(0x1000 + topic);
    delta.replay(topicRecord(`topic-${topic}`, topicId));
    for (let partitionId = 0; partitionId < PARTITIONS_PER_TOPIC; partitionId++) {
      delta.replay({
        ...template,
        data: { ...template.data, topicId, partitionId },
      } as typeof template);
    }
  }
  const before = delta.apply({ lastContainedOffset: 0, lastContainedEpoch: 1 });
  const changedId = testUuid(0x1000 + 500) as Uuid;
  const change = new MetadataDelta(before);
  change.replay(partitionChange(changedId, 42, { isr: [1, 2] }));
  const after = change.apply({ lastContainedOffset: 1, lastContainedEpoch: 1 });

  let sharedTopics = 0;
  for (const [id, topic] of before.topics.byId) {
    if (id !== changedId && after.topics.byId.get(id) === topic) sharedTopics += 1;
  }
  assert.equal(sharedTopics, TOPICS - 1);
  const oldTopic = before.topics.byId.get(changedId);
  const newTopic = after.topics.byId.get(changedId);
  assert.notEqual(newTopic, oldTopic);
  assert.equal(after.topics.byName.get("topic-500"), newTopic);
  let sharedPartitions = 0;
  for (const [index, partition] of oldTopic?.partitions ?? []) {
    if (index !== 42 && newTopic?.partitions.get(index) === partition) sharedPartitions += 1;
  }
  assert.equal(sharedPartitions, PARTITIONS_PER_TOPIC - 1);
  assert.deepEqual(newTopic?.partitions.get(42)?.isr, [1, 2]);
  assert.deepEqual(oldTopic?.partitions.get(42)?.isr, [1, 2, 3], "the old image is unchanged");
  assert.equal(after.cluster, before.cluster);
  assert.equal(after.configs, before.configs);
});
