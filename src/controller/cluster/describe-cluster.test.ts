import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { registerController } from "./controller-registration.js";
import { brokerRecord, imageOf, replay, testUuid } from "./controls.test-support.js";
import { EndpointType, describeCluster } from "./describe-cluster.js";

const image = imageOf(
  brokerRecord(2, { rack: "r2" }),
  brokerRecord(1),
  brokerRecord(3, { isFenced: true }),
);
const base = { image, clusterId: "c1", controllerId: 1, listenerName: "PLAINTEXT" };

test("DescribeCluster lists unfenced brokers on the request's listener, in id order", () => {
  const request = { includeClusterAuthorizedOperations: true, endpointType: EndpointType.BROKER };
  const response = describeCluster({ ...base, servedBy: "broker" }, request);
  assert.equal(response.errorCode, ErrorCode.NONE);
  assert.equal(response.clusterId, "c1");
  // Asked, and with no authorizer: every operation a cluster supports, as Kafka answers.
  assert.equal(response.clusterAuthorizedOperations, 8096);
  assert.deepEqual(response.brokers, [
    { brokerId: 1, host: "broker1", port: 9092, rack: null },
    { brokerId: 2, host: "broker2", port: 9092, rack: "r2" },
  ]);
  const elsewhere = describeCluster({ ...base, listenerName: "SSL", servedBy: "broker" }, request);
  assert.deepEqual(elsewhere.brokers, []);
});

test("DescribeCluster refuses the endpoint type its server does not serve", () => {
  const request = {
    includeClusterAuthorizedOperations: false,
    endpointType: EndpointType.CONTROLLER,
  };
  const response = describeCluster({ ...base, servedBy: "broker" }, request);
  assert.equal(response.errorCode, ErrorCode.UNSUPPORTED_ENDPOINT_TYPE);
});

test("a controller registers once, is described, and re-registering is a no-op", () => {
  const request = {
    controllerId: 9,
    incarnationId: testUuid(9),
    zkMigrationReady: false,
    listeners: [{ name: "CONTROLLER", host: "c9", port: 9093, securityProtocol: 0 }],
    features: [{ name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 22 }],
  };
  const result = registerController(image, request);
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  const next = replay(image, result.records);
  assert.deepEqual(registerController(next, request).records, []);
  const described = describeCluster(
    { ...base, image: next, listenerName: "CONTROLLER", servedBy: "controller" },
    { includeClusterAuthorizedOperations: false, endpointType: EndpointType.CONTROLLER },
  );
  assert.deepEqual(described.brokers, [{ brokerId: 9, host: "c9", port: 9093, rack: null }]);
  const old = registerController(image, { ...request, features: [] });
  assert.equal(old.response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
});
