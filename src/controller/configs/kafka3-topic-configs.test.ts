import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import { brokerRecord, imageOf, testUuid, topicRecords } from "../cluster/controls.test-support.js";
import { alterConfigs } from "./alter-configs.js";
import { ConfigSource, ConfigType } from "./config-definition.js";
import { describeConfigs } from "./describe-configs.js";
import { isKafkaVersion } from "./kafka-versions.js";

const TOPIC = ConfigResourceType.TOPIC;
const image = imageOf(brokerRecord(1), ...topicRecords("t", testUuid(1), [[1]]));

function alterTopic(name: string, value: string): number | undefined {
  const result = alterConfigs(image, {
    resources: [{ resourceType: TOPIC, resourceName: "t", configs: [{ name, value }] }],
    validateOnly: true,
  });
  return result.response.responses[0]?.errorCode;
}

test("the topic configs Kafka 3.x still accepts are accepted with Kafka's value rules", () => {
  assert.equal(alterTopic("message.format.version", "2.8"), ErrorCode.NONE);
  assert.equal(alterTopic("message.format.version", "0.10.2-IV0"), ErrorCode.NONE);
  assert.equal(alterTopic("message.format.version", "3.0-IV1"), ErrorCode.NONE);
  assert.equal(alterTopic("message.format.version", "2.8.1"), ErrorCode.NONE);
  assert.equal(alterTopic("message.format.version", "2.9"), ErrorCode.INVALID_CONFIG);
  assert.equal(alterTopic("message.format.version", "newest"), ErrorCode.INVALID_CONFIG);
  assert.equal(alterTopic("message.downconversion.enable", "false"), ErrorCode.NONE);
  assert.equal(alterTopic("message.downconversion.enable", "never"), ErrorCode.INVALID_CONFIG);
  assert.equal(alterTopic("message.timestamp.difference.max.ms", "60000"), ErrorCode.NONE);
  assert.equal(alterTopic("message.timestamp.difference.max.ms", "-1"), ErrorCode.INVALID_CONFIG);
});

test("DescribeConfigs reports them as Kafka 3.x does: defaults from their broker synonyms", () => {
  const request = {
    resources: [{ resourceType: TOPIC, resourceName: "t", configurationKeys: null }],
    includeSynonyms: true,
    includeDocumentation: false,
  };
  const [result] = describeConfigs({ image, staticConfig: {} }, request).results;
  const byName = new Map(result?.configs.map((config) => [config.name, config]));
  const expected = [
    ["message.format.version", "3.0-IV1", ConfigType.STRING, "log.message.format.version"],
    [
      "message.downconversion.enable",
      "true",
      ConfigType.BOOLEAN,
      "log.message.downconversion.enable",
    ],
    [
      "message.timestamp.difference.max.ms",
      "9223372036854775807",
      ConfigType.LONG,
      "log.message.timestamp.difference.max.ms",
    ],
  ] as const;
  for (const [name, value, configType, synonym] of expected) {
    const config = byName.get(name);
    assert.equal(config?.value, value, name);
    assert.equal(config?.configType, configType, name);
    assert.equal(config?.configSource, ConfigSource.DEFAULT_CONFIG, name);
    assert.equal(config?.isDefault, true, name);
    assert.deepEqual(config?.synonyms, [
      { name: synonym, value, source: ConfigSource.DEFAULT_CONFIG },
    ]);
  }
});

test("versions are read as Kafka reads them: releases, protocol versions, extra segments", () => {
  for (const version of ["0.8.0", "0.10.0", "0.10.0-IV1", "0.10.0.1", "1.0", "3.9", "3.7-IV4"]) {
    assert.equal(isKafkaVersion(version), true, version);
  }
  for (const version of ["0.10", "1.2", "3.7-IV5", "4.0", "", "3"]) {
    assert.equal(isKafkaVersion(version), false, version);
  }
});
