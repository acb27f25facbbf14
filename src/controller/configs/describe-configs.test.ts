import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { ConfigResourceType } from "../../metadata/index.js";
import {
  brokerRecord,
  configRecordOf,
  imageOf,
  testUuid,
  topicRecords,
} from "../cluster/controls.test-support.js";
import { ConfigSource, ConfigType } from "./config-definition.js";
import { describeConfigs } from "./describe-configs.js";

const TOPIC = ConfigResourceType.TOPIC;
const BROKER = ConfigResourceType.BROKER;
const image = imageOf(
  brokerRecord(1),
  ...topicRecords("t", testUuid(1), [[1]]),
  configRecordOf(TOPIC, "t", "cleanup.policy", "compact"),
  configRecordOf(BROKER, "", "log.retention.hours", "24"),
  configRecordOf(BROKER, "1", "log.segment.bytes", "2048"),
);
const staticConfig = {
  "log.segment.bytes": "4096",
  "log.dirs": "/data",
  "log.retention.ms": "5000",
};

function describe(
  resourceType: number,
  resourceName: string,
  keys: string[] | null,
  options = { includeSynonyms: true, includeDocumentation: true },
) {
  const request = {
    resources: [{ resourceType, resourceName, configurationKeys: keys }],
    ...options,
  };
  const [result] = describeConfigs({ image, staticConfig, brokerId: 1 }, request).results;
  assert.ok(result !== undefined);
  return result;
}

test("a topic config set on the topic comes from DYNAMIC_TOPIC_CONFIG", () => {
  const [config] = describe(TOPIC, "t", ["cleanup.policy"]).configs;
  assert.equal(config?.value, "compact");
  assert.equal(config?.configSource, ConfigSource.DYNAMIC_TOPIC_CONFIG);
  assert.equal(config?.configType, ConfigType.LIST);
  assert.ok((config?.documentation ?? "").length > 0);
  assert.deepEqual(
    config?.synonyms.map((synonym) => synonym.source),
    [ConfigSource.DYNAMIC_TOPIC_CONFIG, ConfigSource.DEFAULT_CONFIG],
  );
});

test("a topic default follows the broker synonyms in order, with unit conversion", () => {
  const [retention] = describe(TOPIC, "t", ["retention.ms"]).configs;
  // The static log.retention.ms outranks log.retention.hours set as the cluster default.
  assert.equal(retention?.value, "5000");
  assert.equal(retention?.configSource, ConfigSource.STATIC_BROKER_CONFIG);
  assert.deepEqual(retention?.synonyms, [
    { name: "log.retention.ms", value: "5000", source: ConfigSource.STATIC_BROKER_CONFIG },
    {
      name: "log.retention.hours",
      value: "24",
      source: ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
    },
    { name: "log.retention.hours", value: "168", source: ConfigSource.DEFAULT_CONFIG },
  ]);
  const [segment] = describe(TOPIC, "t", ["segment.bytes"]).configs;
  assert.equal(segment?.value, "2048");
  assert.equal(segment?.configSource, ConfigSource.DYNAMIC_BROKER_CONFIG);
  const [segmentMs] = describe(TOPIC, "t", ["segment.ms"]).configs;
  assert.equal(segmentMs?.value, "604800000");
  assert.equal(segmentMs?.configSource, ConfigSource.DEFAULT_CONFIG);
  assert.equal(segmentMs?.isDefault, true);
});

test("hours set on the cluster default become milliseconds in the topic config", () => {
  const request = {
    resources: [{ resourceType: TOPIC, resourceName: "t", configurationKeys: ["retention.ms"] }],
    includeSynonyms: false,
    includeDocumentation: false,
  };
  const [result] = describeConfigs({ image, staticConfig: {} }, request).results;
  assert.equal(result?.configs[0]?.value, String(24 * 3_600_000));
  assert.deepEqual(result?.configs[0]?.synonyms, []);
  assert.equal(result?.configs[0]?.documentation, null);
});

test("all topic configs are listed when no keys are asked for", () => {
  const names = describe(TOPIC, "t", null).configs.map((config) => config.name);
  assert.ok(names.includes("min.insync.replicas"));
  assert.ok(names.includes("unclean.leader.election.enable"));
});

test("a broker shows its dynamic configs and its static ones read-only", () => {
  const configs = describe(BROKER, "1", null).configs;
  const segment = configs.find((config) => config.name === "log.segment.bytes");
  assert.equal(segment?.value, "2048");
  assert.equal(segment?.configSource, ConfigSource.DYNAMIC_BROKER_CONFIG);
  assert.deepEqual(
    segment?.synonyms.map((synonym) => synonym.source),
    [
      ConfigSource.DYNAMIC_BROKER_CONFIG,
      ConfigSource.STATIC_BROKER_CONFIG,
      ConfigSource.DEFAULT_CONFIG,
    ],
  );
  const dirs = configs.find((config) => config.name === "log.dirs");
  assert.equal(dirs?.readOnly, true);
  assert.equal(dirs?.configSource, ConfigSource.STATIC_BROKER_CONFIG);
  const clusterDefault = describe(BROKER, "", null).configs;
  assert.deepEqual(
    clusterDefault.map((config) => [config.name, config.value, config.configSource]),
    [["log.retention.hours", "24", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG]],
  );
});

test("unknown topics, bad broker names and other resource types are refused", () => {
  assert.equal(describe(TOPIC, "nope", null).errorCode, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  assert.equal(describe(BROKER, "x1", null).errorCode, ErrorCode.INVALID_REQUEST);
  assert.equal(
    describe(ConfigResourceType.BROKER_LOGGER, "1", null).errorCode,
    ErrorCode.INVALID_REQUEST,
  );
});
