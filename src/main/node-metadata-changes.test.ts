import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeMetadataRecord, MetadataRecordType as Type } from "../protocol/index.js";
import {
  metadataChangeListener,
  newMetadataChangeFeed,
  summarizeMetadataRecord,
} from "./node-metadata-changes.js";

const topicId = "00000000000000000000000000000001";

test("records are named by Kafka's type names and what they touch", () => {
  const summaries = [
    encodeMetadataRecord({ type: Type.TopicRecord, version: 0, data: { name: "orders", topicId } }),
    encodeMetadataRecord({
      type: Type.PartitionChangeRecord,
      version: 0,
      data: { topicId, partitionId: 1, leader: 2, isr: [2, 3] },
    }),
    encodeMetadataRecord({
      type: Type.PartitionChangeRecord,
      version: 0,
      data: { topicId, partitionId: 0, isr: [1] },
    }),
    encodeMetadataRecord({
      type: Type.BrokerRegistrationChangeRecord,
      version: 1,
      data: { brokerId: 3, brokerEpoch: 9, fenced: 1 },
    }),
    encodeMetadataRecord({ type: Type.FenceBrokerRecord, version: 0, data: { id: 2, epoch: 4 } }),
    encodeMetadataRecord({
      type: Type.ConfigRecord,
      version: 0,
      data: { resourceType: 2, resourceName: "orders", name: "sasl.secret", value: "hunter2" },
    }),
  ].map((value) => summarizeMetadataRecord(value));
  assert.deepEqual(summaries, [
    { type: "TopicRecord", summary: "topic orders (AAAAAAAAAAAAAAAAAAAAAQ)" },
    { type: "PartitionChangeRecord", summary: "AAAAAAAAAAAAAAAAAAAAAQ-1 leader 2 isr 2,3" },
    { type: "PartitionChangeRecord", summary: "AAAAAAAAAAAAAAAAAAAAAQ-0 isr 1" },
    { type: "BrokerRegistrationChangeRecord", summary: "broker 3 fenced" },
    { type: "FenceBrokerRecord", summary: "broker 2 fenced" },
    // A config's value is never shown: it may be a secret.
    { type: "ConfigRecord", summary: "orders: sasl.secret" },
  ]);
});

test("a topic id the image knows is named by the topic's name", () => {
  const value = encodeMetadataRecord({
    type: Type.PartitionRecord,
    version: 0,
    data: { topicId, partitionId: 2, leader: 1, replicas: [1, 2], isr: [1] },
  });
  const names = (id: string) => (id === topicId ? "orders" : undefined);
  assert.deepEqual(summarizeMetadataRecord(value, names), {
    type: "PartitionRecord",
    summary: "orders-2 leader 1, replicas 1,2, isr 1",
  });
});

test("a value that does not decode is summarized as such, not thrown", () => {
  const summary = summarizeMetadataRecord(new Uint8Array([9, 9, 9]));
  assert.equal(summary.type, "undecodable record");
});

test("the Raft listener hands commits and snapshots to the feed", () => {
  const feed = newMetadataChangeFeed(() => undefined);
  const listener = metadataChangeListener(feed);
  const record = encodeMetadataRecord({ type: Type.NoOpRecord, version: 0, data: {} });
  listener.handleCommit({ baseOffset: 5, lastOffset: 5, epoch: 2, records: [record] });
  assert.deepEqual(feed.recent(), [
    {
      kind: "batch",
      baseOffset: 5,
      lastOffset: 5,
      epoch: 2,
      recordCount: 1,
      records: [{ type: "NoOpRecord", summary: "" }],
    },
  ]);
  listener.handleLoadSnapshot({ snapshotId: { endOffset: 10, epoch: 2 }, records: [] });
  assert.deepEqual(
    feed.recent().map((change) => [change.kind, change.lastOffset]),
    [["snapshot", 9]],
  );
});
