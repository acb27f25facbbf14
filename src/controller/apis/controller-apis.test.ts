import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { ByteReader, ByteWriter, apiCodec } from "../../protocol/index.js";
import { METADATA_VERSION_LATEST, METADATA_VERSION_MIN } from "../features/index.js";
import {
  CLUSTER_ID,
  activate,
  call,
  newHarness,
  registerUnfencedBroker,
  requestBody,
  uuid,
} from "../quorum/controller-harness.test-support.js";
import type { ControllerApi } from "./controller-api.js";
import { controllerApiHandlers, controllerApis } from "./controller-apis.js";

/** A plausible request of each API, by key; the codec fills what a version lacks. */
const SAMPLE_REQUESTS: Readonly<Record<number, object>> = {
  19: {
    topics: [
      { name: "t-new", numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] },
    ],
    timeoutMs: 1000,
  },
  20: { topicNames: ["t0"], topics: [{ name: "t0" }], timeoutMs: 1000 },
  30: {
    creations: [
      {
        ...{ resourceType: 2, resourceName: "t0", resourcePatternType: 3 },
        ...{ principal: "User:alice", host: "*", operation: 3, permissionType: 3 },
      },
    ],
  },
  31: {
    filters: [
      {
        ...{ resourceTypeFilter: 1, resourceNameFilter: null, patternTypeFilter: 1 },
        ...{ principalFilter: null, hostFilter: null, operation: 1, permissionType: 1 },
      },
    ],
  },
  32: {
    resources: [{ resourceType: 2, resourceName: "t0", configurationKeys: null }],
    includeSynonyms: true,
    includeDocumentation: true,
  },
  33: {
    resources: [
      { resourceType: 2, resourceName: "t0", configs: [{ name: "retention.ms", value: "1000" }] },
    ],
  },
  37: { topics: [{ name: "t0", count: 3, assignments: null }], timeoutMs: 1000 },
  43: { electionType: 0, topicPartitions: [{ topic: "t0", partitions: [0] }], timeoutMs: 1000 },
  44: {
    resources: [
      {
        resourceType: 2,
        resourceName: "t0",
        configs: [{ name: "retention.ms", configOperation: 0, value: "2000" }],
      },
    ],
  },
  45: {
    timeoutMs: 1000,
    topics: [{ name: "t0", partitions: [{ partitionIndex: 0, replicas: null }] }],
  },
  46: { timeoutMs: 1000, topics: null },
  49: {
    entries: [
      {
        entity: [{ entityType: "client-id", entityName: "app" }],
        ops: [{ key: "producer_byte_rate", value: 1024, remove: false }],
      },
    ],
    validateOnly: false,
  },
  51: {
    deletions: [{ name: "ghost", mechanism: 1 }],
    upsertions: [
      {
        name: "alice",
        mechanism: 2,
        iterations: 4096,
        salt: new Uint8Array(8).fill(1),
        saltedPassword: new Uint8Array(64).fill(2),
      },
    ],
  },
  56: { brokerId: 1, brokerEpoch: 0, topics: [] },
  57: {
    timeoutMs: 1000,
    featureUpdates: [{ feature: "eligible.leader.replicas.version", maxVersionLevel: 1 }],
  },
  60: { includeClusterAuthorizedOperations: false, endpointType: 2 },
  62: {
    brokerId: 9,
    clusterId: CLUSTER_ID,
    incarnationId: uuid(9),
    listeners: [{ name: "PLAINTEXT", host: "b9", port: 9092, securityProtocol: 0 }],
    features: [
      {
        name: "metadata.version",
        minSupportedVersion: METADATA_VERSION_MIN,
        maxSupportedVersion: METADATA_VERSION_LATEST,
      },
    ],
    rack: null,
    logDirs: [uuid(19)],
  },
  63: { brokerId: 1, brokerEpoch: 0, currentMetadataOffset: 0, offlineLogDirs: [] },
  64: { brokerId: 99 },
  67: { brokerId: 1, brokerEpoch: 0 },
  70: {
    controllerId: 1,
    incarnationId: uuid(1),
    listeners: [{ name: "CONTROLLER", host: "c1", port: 9093, securityProtocol: 0 }],
    features: [
      {
        name: "metadata.version",
        minSupportedVersion: METADATA_VERSION_MIN,
        maxSupportedVersion: METADATA_VERSION_LATEST,
      },
    ],
  },
  73: {
    brokerId: 1,
    brokerEpoch: 0,
    directories: [{ id: uuid(19), topics: [{ topicId: uuid(1), partitions: [] }] }],
  },
};

/** Encodes a response at `version`, decodes it, and checks that encoding it again is identical. */
function assertRoundTrip(
  api: ControllerApi,
  version: number,
  response: object,
): Record<string, unknown> {
  const codec = apiCodec(api.apiKey);
  assert.ok(codec !== undefined);
  const writer = new ByteWriter();
  codec.encodeResponse(version, response, writer);
  const bytes = writer.finish();
  const decoded = codec.decodeResponse(version, new ByteReader(bytes)) as Record<string, unknown>;
  const again = new ByteWriter();
  codec.encodeResponse(version, decoded, again);
  assert.deepEqual(again.finish(), bytes, `${api.name} v${version} round trip`);
  return decoded;
}

function withBrokerEpoch(apiKey: number, input: object, brokerEpoch: number): object {
  return [56, 63, 67, 73].includes(apiKey) ? { ...input, brokerEpoch } : input;
}

test("each controller API serves a range within its codec's, once per API key", () => {
  const keys = new Set<number>();
  for (const api of controllerApis) {
    const codec = apiCodec(api.apiKey);
    assert.ok(codec !== undefined, api.name);
    assert.equal(codec.name, api.name);
    assert.ok(api.minVersion >= codec.minVersion && api.maxVersion <= codec.maxVersion, api.name);
    assert.equal(keys.has(api.apiKey), false, `${api.name} once`);
    keys.add(api.apiKey);
  }
  assert.equal(keys.size, 22);
});

test("every controller API answers and encodes its response at every served version", async () => {
  for (const api of controllerApis) {
    for (let version = api.minVersion; version <= api.maxVersion; version++) {
      const harness = newHarness();
      await activate(harness);
      const brokerEpoch = await registerUnfencedBroker(harness, 1);
      await call(harness, controllerApis[0]!, 5, {
        topics: [
          { name: "t0", numPartitions: 1, replicationFactor: 1, assignments: [], configs: [] },
        ],
        timeoutMs: 1000,
      });
      const sample = SAMPLE_REQUESTS[api.apiKey];
      assert.ok(sample !== undefined, `a sample request of ${api.name}`);
      const response = await call<object>(
        harness,
        api,
        version,
        withBrokerEpoch(api.apiKey, sample, brokerEpoch),
      );
      assertRoundTrip(api, version, response);
    }
  }
});

test("every controller API's error response encodes at every served version", () => {
  for (const api of controllerApis) {
    for (let version = api.minVersion; version <= api.maxVersion; version++) {
      const sample = SAMPLE_REQUESTS[api.apiKey] ?? {};
      const header = {
        apiKey: api.apiKey,
        apiVersion: version,
        correlationId: 1,
        clientId: null,
        taggedFields: [],
      };
      const request = {
        header,
        body: requestBody(api.apiKey, version, sample),
        listenerName: "CONTROLLER",
      };
      const response = api.errorResponse(request, ErrorCode.NOT_CONTROLLER, "not the controller");
      const decoded = assertRoundTrip(api, version, response);
      assert.ok(
        JSON.stringify(decoded).includes(`"errorCode":${ErrorCode.NOT_CONTROLLER}`),
        `${api.name} v${version}`,
      );
    }
  }
});

test("a controller that is not active answers every write with NOT_CONTROLLER", async () => {
  const harness = newHarness();
  harness.raft.elect(2, 1);
  const handlers = controllerApiHandlers(harness.controller);
  for (const handler of handlers) {
    if (handler.apiKey === 60) continue;
    const version = handler.maxVersion;
    const header = {
      apiKey: handler.apiKey,
      apiVersion: version,
      correlationId: 1,
      clientId: null,
      taggedFields: [],
    };
    const body = requestBody(handler.apiKey, version, SAMPLE_REQUESTS[handler.apiKey] ?? {});
    const outcome = await handler.handle(body, {
      header,
      connection: { listenerName: "CONTROLLER" },
    });
    assert.equal(outcome.kind, "respond");
    assert.ok(
      JSON.stringify(outcome.body).includes(`"errorCode":${ErrorCode.NOT_CONTROLLER}`),
      `API ${handler.apiKey}`,
    );
  }
});

test("DescribeCluster on the controller listener lists the registered controllers", async () => {
  const harness = newHarness();
  await activate(harness);
  const registration = controllerApis.find((api) => api.apiKey === 70);
  const describe = controllerApis.find((api) => api.apiKey === 60);
  assert.ok(registration !== undefined && describe !== undefined);
  await call(harness, registration, 0, SAMPLE_REQUESTS[70]!);
  const response = await call<{
    brokers: { brokerId: number; port: number }[];
    controllerId: number;
  }>(harness, describe, 1, SAMPLE_REQUESTS[60]!);
  assert.deepEqual(
    response.brokers.map((node) => [node.brokerId, node.port]),
    [[1, 9093]],
  );
  assert.equal(response.controllerId, 1);
});

test("a user operation of over 10,000 records is refused whole with POLICY_VIOLATION", async () => {
  const harness = newHarness();
  await activate(harness);
  await registerUnfencedBroker(harness, 1);
  const createTopics = controllerApis.find((api) => api.apiKey === 19);
  assert.ok(createTopics !== undefined);
  // A TopicRecord and 10,000 PartitionRecords: one record too many, as in Kafka.
  const create = (name: string, numPartitions: number) =>
    call<{ topics: { name: string; errorCode: number; errorMessage: string | null }[] }>(
      harness,
      createTopics,
      5,
      {
        topics: [{ name, numPartitions, replicationFactor: 1, assignments: [], configs: [] }],
        timeoutMs: 1000,
      },
    );
  const refused = await create("too-big", 10_000);
  assert.deepEqual(
    refused.topics.map(({ errorCode, errorMessage }) => [errorCode, errorMessage]),
    [[ErrorCode.POLICY_VIOLATION, "Unable to perform excessively large batch operation."]],
  );
  assert.equal(harness.controller.committedImage.topics.byName.has("too-big"), false);
  const accepted = await create("just-fits", 9_999);
  assert.equal(accepted.topics[0]?.errorCode, ErrorCode.NONE);
});
