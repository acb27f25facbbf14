import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { BrokerRegistrationRequest, MetadataRecord } from "../../protocol/index.js";
import { BrokerHeartbeats, registerBroker } from "../cluster/index.js";
import {
  applyOutput,
  broker,
  changeRecords,
  elrOn,
  feature,
  imageOf,
  partition,
  partitionOf,
  topic,
  topicConfig,
  uuid,
} from "../partition-control.test-support.js";
import { handleBrokerUnfenced } from "./broker-events.js";
import { electionPartitionHooks } from "./election-hooks.js";
import { DEFAULT_REPLICATION_DEFAULTS } from "./topic-settings.js";

const CLUSTER_ID = "sluice-test-cluster";
const FOO = uuid(1);
const b = (id: number) => id as BrokerId;

const FEATURES = [
  { name: "metadata.version", minSupportedVersion: 7, maxSupportedVersion: 22 },
  { name: "eligible.leader.replicas.version", minSupportedVersion: 0, maxSupportedVersion: 1 },
];

/** A new incarnation of `brokerId`, registered with the election code's real hooks. */
function restart(image: MetadataImage, brokerId: number, overrides = {}) {
  const request: BrokerRegistrationRequest = {
    brokerId,
    clusterId: CLUSTER_ID,
    incarnationId: uuid(7000 + brokerId),
    listeners: [{ name: "PLAINTEXT", host: "localhost", port: 9000, securityProtocol: 0 }],
    features: FEATURES,
    rack: null,
    isMigratingZkBroker: false,
    logDirs: [uuid(900 + brokerId)],
    previousBrokerEpoch: -1,
    ...overrides,
  };
  const hooks = electionPartitionHooks(DEFAULT_REPLICATION_DEFAULTS, () => undefined);
  return registerBroker(
    {
      image,
      heartbeats: BrokerHeartbeats.EMPTY,
      nowMs: 50_000,
      clusterId: CLUSTER_ID,
      config: { sessionTimeoutMs: 9000, brokerIdBase: 1000 },
      hooks,
      nextWriteOffset: 500,
    },
    request,
  );
}

/** Three brokers, 1 and 2 fenced, and foo-0 with min.insync.replicas 2 in `state`. */
function cluster(state: Parameters<typeof partition>[2], extra: MetadataRecord[]) {
  return imageOf([
    feature("metadata.version", 22),
    ...extra,
    broker(1, { isFenced: true }),
    broker(2, { isFenced: true }),
    broker(3),
    topic("foo", FOO),
    topicConfig("foo", "min.insync.replicas", "2"),
    partition(FOO, 0, state),
  ]);
}

test("with ELR, a restarted broker leaves the ELR ahead of its registration record", () => {
  const image = cluster({ replicas: [1, 2, 3], isr: [3], elr: [1, 2] }, [elrOn()]);
  const result = restart(image, 2);
  assert.equal(result.response.errorCode, ErrorCode.NONE);
  const [change, register] = result.records;
  assert.deepEqual(changeRecords([change!])[0]?.eligibleLeaderReplicas, [1]);
  assert.equal(register?.type, MetadataRecordType.RegisterBrokerRecord);
  assert.equal(result.response.brokerEpoch, 501, "the epoch is the register record's offset");
  const after = applyOutput(image, result.records);
  assert.deepEqual(partitionOf(after, FOO, 0).eligibleLeaderReplicas, [1]);
  assert.equal(after.cluster.brokers.get(b(2))?.epoch, 501);
});

test("without ELR, a restart changes no partition, as Kafka's handler does nothing then", () => {
  const image = cluster({ replicas: [1, 2, 3], isr: [1], leader: -1 }, []);
  const result = restart(image, 1);
  assert.equal(result.records.length, 1);
  assert.equal(result.records[0]?.type, MetadataRecordType.RegisterBrokerRecord);
  const after = applyOutput(image, result.records);
  const [record] = changeRecords(handleBrokerUnfenced(after, b(1)).records);
  assert.equal(record?.leader, 1, "the last ISR member leads again, whatever its log holds");
});

test("a restarted last leader is not elected while another eligible replica may come back", () => {
  const state = { replicas: [1, 2, 3], isr: [], leader: -1, elr: [1, 2], lastKnownElr: [1] };
  const image = cluster(state, [elrOn()]);
  const restarted = applyOutput(image, restart(image, 1).records);
  assert.deepEqual(partitionOf(restarted, FOO, 0).eligibleLeaderReplicas, [2]);
  assert.equal(handleBrokerUnfenced(restarted, b(1)).records.length, 0, "1 may not lead");
  const [record] = changeRecords(handleBrokerUnfenced(restarted, b(2)).records);
  assert.equal(record?.leader, 2);
  assert.deepEqual(record?.isr, [2]);
});

test("a broker that does not support the finalized ELR level may not register", () => {
  const image = cluster({ replicas: [1, 2, 3] }, [elrOn()]);
  const features = FEATURES.slice(0, 1);
  const result = restart(image, 2, { features });
  assert.equal(result.response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
  assert.deepEqual(result.records, []);
});
