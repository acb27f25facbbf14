import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { ConfigResourceType, configResourceKey } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import {
  brokerRecord,
  configRecordOf,
  imageOf,
  replay,
  testUuid,
  topicRecords,
} from "../cluster/controls.test-support.js";
import { alterConfigs } from "./alter-configs.js";
import { ConfigOperation, incrementalAlterConfigs } from "./incremental-alter-configs.js";

const TOPIC = ConfigResourceType.TOPIC;
const BROKER = ConfigResourceType.BROKER;
const image = imageOf(
  brokerRecord(1),
  ...topicRecords("t", testUuid(1), [[1]]),
  configRecordOf(TOPIC, "t", "retention.ms", "100"),
  configRecordOf(TOPIC, "t", "segment.ms", "200"),
);

function topicValues(after: MetadataImage): Record<string, string> {
  const values = after.configs.resources.get(configResourceKey({ type: TOPIC, name: "t" }))?.values;
  return Object.fromEntries(values?.entries() ?? []);
}

type Op = { name: string; configOperation: number; value: string | null };
function incremental(
  resourceType: number,
  resourceName: string,
  configs: Op[],
  validateOnly = false,
) {
  return incrementalAlterConfigs(image, {
    resources: [{ resourceType, resourceName, configs }],
    validateOnly,
  });
}

test("AlterConfigs replaces the whole set: keys left out are removed", () => {
  const configs = [
    { name: "retention.ms", value: "300" },
    { name: "cleanup.policy", value: "compact,delete" },
  ];
  const result = alterConfigs(image, {
    resources: [{ resourceType: TOPIC, resourceName: "t", configs }],
    validateOnly: false,
  });
  assert.equal(result.response.responses[0]?.errorCode, ErrorCode.NONE);
  assert.deepEqual(topicValues(replay(image, result.records)), {
    "cleanup.policy": "compact,delete",
    "retention.ms": "300",
  });
  const dry = alterConfigs(image, {
    resources: [{ resourceType: TOPIC, resourceName: "t", configs }],
    validateOnly: true,
  });
  assert.deepEqual(dry.records, []);
});

test("AlterConfigs refuses unknown keys, bad values, unknown topics and repeated resources", () => {
  const one = (resourceType: number, resourceName: string, name: string, value: string) =>
    alterConfigs(image, {
      resources: [{ resourceType, resourceName, configs: [{ name, value }] }],
      validateOnly: false,
    }).response.responses[0];
  assert.equal(one(TOPIC, "t", "retention.mss", "1")?.errorCode, ErrorCode.INVALID_CONFIG);
  const bad = one(TOPIC, "t", "min.insync.replicas", "0");
  assert.equal(bad?.errorCode, ErrorCode.INVALID_CONFIG);
  assert.match(bad?.errorMessage ?? "", /min\.insync\.replicas/);
  assert.equal(one(TOPIC, "t", "retention.ms", "soon")?.errorCode, ErrorCode.INVALID_CONFIG);
  assert.equal(
    one(TOPIC, "zz", "retention.ms", "1")?.errorCode,
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
  );
  assert.equal(one(BROKER, "1", "log.dirs", "/x")?.errorCode, ErrorCode.INVALID_CONFIG);
  const resource = { resourceType: TOPIC, resourceName: "t", configs: [] };
  const twice = alterConfigs(image, { resources: [resource, resource], validateOnly: false });
  assert.deepEqual(
    twice.response.responses.map((answer) => answer.errorCode),
    [ErrorCode.INVALID_REQUEST, ErrorCode.INVALID_REQUEST],
  );
});

test("SET and DELETE change single keys and leave the rest", () => {
  const result = incremental(TOPIC, "t", [
    { name: "retention.ms", configOperation: ConfigOperation.DELETE, value: null },
    { name: "max.message.bytes", configOperation: ConfigOperation.SET, value: "2000" },
  ]);
  assert.equal(result.response.responses[0]?.errorCode, ErrorCode.NONE);
  assert.deepEqual(topicValues(replay(image, result.records)), {
    "max.message.bytes": "2000",
    "segment.ms": "200",
  });
  assert.deepEqual(
    incremental(TOPIC, "t", [
      { name: "segment.ms", configOperation: ConfigOperation.SET, value: "200" },
    ]).records,
    [],
  );
});

test("APPEND and SUBTRACT work on list configs, from the default when unset", () => {
  const append = incremental(TOPIC, "t", [
    { name: "cleanup.policy", configOperation: ConfigOperation.APPEND, value: "compact" },
  ]);
  const appended = replay(image, append.records);
  assert.equal(topicValues(appended)["cleanup.policy"], "delete,compact");
  const subtract = incrementalAlterConfigs(appended, {
    resources: [
      {
        resourceType: TOPIC,
        resourceName: "t",
        configs: [
          { name: "cleanup.policy", configOperation: ConfigOperation.SUBTRACT, value: "delete" },
        ],
      },
    ],
    validateOnly: false,
  });
  assert.equal(topicValues(replay(appended, subtract.records))["cleanup.policy"], "compact");
  const notList = incremental(TOPIC, "t", [
    { name: "retention.ms", configOperation: ConfigOperation.APPEND, value: "1" },
  ]);
  assert.equal(notList.response.responses[0]?.errorCode, ErrorCode.INVALID_CONFIG);
});

test("undefined operations, missing values and repeated keys are refused", () => {
  const codes = [
    incremental(TOPIC, "t", [{ name: "retention.ms", configOperation: 7, value: "1" }]),
    incremental(TOPIC, "t", [
      { name: "retention.ms", configOperation: ConfigOperation.SET, value: null },
    ]),
    incremental(TOPIC, "t", [
      { name: "retention.ms", configOperation: ConfigOperation.SET, value: "1" },
      { name: "retention.ms", configOperation: ConfigOperation.DELETE, value: null },
    ]),
    incremental(TOPIC, "t", [
      { name: "nope", configOperation: ConfigOperation.DELETE, value: null },
    ]),
  ].map((result) => result.response.responses[0]?.errorCode);
  assert.deepEqual(codes, [
    ErrorCode.INVALID_REQUEST,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.INVALID_CONFIG,
  ]);
});

test("dynamic broker configs are set per broker or as the cluster default", () => {
  const set = (name: string) =>
    incremental(BROKER, name, [
      { name: "log.retention.ms", configOperation: ConfigOperation.SET, value: "1000" },
    ]);
  const perBroker = replay(image, set("1").records);
  assert.equal(
    perBroker.configs.resources
      .get(configResourceKey({ type: BROKER, name: "1" }))
      ?.values.get("log.retention.ms"),
    "1000",
  );
  assert.equal(set("").response.responses[0]?.errorCode, ErrorCode.NONE);
  assert.equal(set("b1").response.responses[0]?.errorCode, ErrorCode.INVALID_REQUEST);
  assert.deepEqual(
    incremental(
      BROKER,
      "1",
      [{ name: "log.retention.ms", configOperation: ConfigOperation.SET, value: "1" }],
      true,
    ).records,
    [],
  );
});

test("the replication throttle rates are dynamic broker configs of at least 0 (KIP-73)", () => {
  const set = (name: string, value: string) =>
    incremental(BROKER, "1", [{ name, configOperation: ConfigOperation.SET, value }]);
  for (const name of ["leader.replication.throttled.rate", "follower.replication.throttled.rate"]) {
    const after = replay(image, set(name, "1048576").records);
    const values = after.configs.resources.get(configResourceKey({ type: BROKER, name: "1" }));
    assert.equal(values?.values.get(name), "1048576");
    assert.equal(set(name, "-1").response.responses[0]?.errorCode, ErrorCode.INVALID_CONFIG);
    assert.equal(set(name, "fast").response.responses[0]?.errorCode, ErrorCode.INVALID_CONFIG);
  }
  const replicas = (value: string) =>
    incremental(TOPIC, "t", [
      {
        name: "leader.replication.throttled.replicas",
        configOperation: ConfigOperation.SET,
        value,
      },
    ]).response.responses[0]?.errorCode;
  assert.equal(replicas("0:1,0:2"), ErrorCode.NONE);
  assert.equal(replicas("*"), ErrorCode.NONE);
  assert.equal(replicas("0-1"), ErrorCode.INVALID_CONFIG);
});
