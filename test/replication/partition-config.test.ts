import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigResourceType } from "../../src/metadata/index.js";
import { defaultPartitionConfig, partitionConfigOf } from "../../src/replication/index.js";
import { defaultLogConfig, NEVER } from "../../src/storage/index.js";
import {
  brokerRecord,
  configRecordOf,
  imageOf,
  testUuid,
  topicRecords,
} from "../../src/controller/cluster/controls.test-support.js";

const defaults = defaultPartitionConfig(defaultLogConfig);

function configOf(...topicConfigs: (readonly [string, string])[]) {
  const image = imageOf(
    brokerRecord(1),
    ...topicRecords("t", testUuid(1), [[1]]),
    ...topicConfigs.map(([name, value]) =>
      configRecordOf(ConfigResourceType.TOPIC, "t", name, value),
    ),
  );
  return partitionConfigOf(image, "t", { defaults, brokerId: 1 });
}

test("Kafka 3.x's message.timestamp.difference.max.ms bounds both directions when alone", () => {
  const plain = configOf();
  assert.equal(plain.messageTimestampBeforeMaxMs, NEVER);
  assert.equal(plain.messageTimestampAfterMaxMs, 3_600_000);
  const bounded = configOf(["message.timestamp.difference.max.ms", "60000"]);
  assert.equal(bounded.messageTimestampBeforeMaxMs, 60_000);
  assert.equal(bounded.messageTimestampAfterMaxMs, 60_000);
  const newer = configOf(
    ["message.timestamp.difference.max.ms", "60000"],
    ["message.timestamp.before.max.ms", "5000"],
  );
  assert.equal(newer.messageTimestampBeforeMaxMs, 5000);
  assert.equal(newer.messageTimestampAfterMaxMs, 3_600_000);
});
