import { test } from "node:test";
import assert from "node:assert/strict";
import type { Uuid } from "../common/index.js";
import { MetadataRecordType as T } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import {
  ConfigResourceType,
  EMPTY_IMAGE,
  configResourceKey,
  scramCredentialKey,
} from "./images.js";
import type { MetadataImage } from "./images.js";
import { MetadataDelta } from "./metadata-delta.js";
import { MetadataReplayError } from "./metadata-replay-error.js";
import { DIRECTORY_MIGRATING } from "./partition-registration.js";
import {
  configRecord,
  featureLevel,
  full,
  partitionChange,
  partitionRecord,
  removeTopic,
  testUuid,
  topicRecord,
} from "./records.test-support.js";

const TOPIC = testUuid(1);
const provenance = (offset: number) => ({ lastContainedOffset: offset, lastContainedEpoch: 1 });

function build(records: MetadataRecord[], base: MetadataImage = EMPTY_IMAGE): MetadataImage {
  const delta = new MetadataDelta(base);
  delta.replayAll(records, base.provenance.lastContainedOffset + 1);
  return delta.apply(provenance(base.provenance.lastContainedOffset + records.length));
}

const withTopic = () => build([topicRecord("orders", TOPIC), partitionRecord(TOPIC, 0, [1, 2, 3])]);
const partitionOf = (image: MetadataImage, index = 0) =>
  image.topics.byId.get(TOPIC as Uuid)?.partitions.get(index);

test("TopicRecord and PartitionRecord create a topic reachable by id and by name", () => {
  const image = withTopic();
  const topic = image.topics.byName.get("orders");
  assert.equal(topic, image.topics.byId.get(TOPIC as Uuid));
  assert.deepEqual(partitionOf(image), {
    replicas: [1, 2, 3],
    directories: [DIRECTORY_MIGRATING, DIRECTORY_MIGRATING, DIRECTORY_MIGRATING],
    isr: [1, 2, 3],
    removingReplicas: [],
    addingReplicas: [],
    leader: 1,
    leaderRecoveryState: "recovered",
    leaderEpoch: 0,
    partitionEpoch: 0,
    eligibleLeaderReplicas: [],
    lastKnownElr: [],
  });
});

test("an ISR-only change keeps leader and leader epoch, bumps the partition epoch", () => {
  const image = build([partitionChange(TOPIC, 0, { isr: [1, 2] })], withTopic());
  const partition = partitionOf(image);
  assert.deepEqual(partition?.isr, [1, 2]);
  assert.equal(partition?.leader, 1);
  assert.equal(partition?.leaderEpoch, 0);
  assert.equal(partition?.partitionEpoch, 1);
});

test("any new leader (-1 too) bumps the leader epoch; -2 keeps the leader", () => {
  const elected = build([partitionChange(TOPIC, 0, { leader: 2 })], withTopic());
  assert.equal(partitionOf(elected)?.leader, 2);
  assert.equal(partitionOf(elected)?.leaderEpoch, 1);
  const leaderless = build([partitionChange(TOPIC, 0, { leader: -1, isr: [] })], elected);
  assert.equal(partitionOf(leaderless)?.leader, -1);
  assert.equal(partitionOf(leaderless)?.leaderEpoch, 2);
  assert.equal(partitionOf(leaderless)?.partitionEpoch, 2);
  const same = build([partitionChange(TOPIC, 0, { leader: 1 })], withTopic());
  assert.equal(partitionOf(same)?.leaderEpoch, 1, "naming the same leader still bumps the epoch");
  const unchanged = build([partitionChange(TOPIC, 0, { leader: -2 })], withTopic());
  assert.equal(partitionOf(unchanged)?.leaderEpoch, 0);
  assert.equal(partitionOf(unchanged)?.partitionEpoch, 1);
});

test("a change replaces replicas, reassignment lists, ELR and recovery state", () => {
  const change = {
    replicas: [1, 2, 3, 4],
    addingReplicas: [4],
    removingReplicas: [3],
    eligibleLeaderReplicas: [2],
    lastKnownElr: [3],
    leaderRecoveryState: 1,
  };
  const partition = partitionOf(build([partitionChange(TOPIC, 0, change)], withTopic()));
  assert.deepEqual(partition?.replicas, [1, 2, 3, 4]);
  assert.equal(partition?.directories.length, 4, "directories follow the replica count");
  assert.deepEqual(partition?.addingReplicas, [4]);
  assert.deepEqual(partition?.removingReplicas, [3]);
  assert.deepEqual(partition?.eligibleLeaderReplicas, [2]);
  assert.deepEqual(partition?.lastKnownElr, [3]);
  assert.equal(partition?.leaderRecoveryState, "recovering");
});

test("an unknown topic or partition throws MetadataReplayError with the offset", () => {
  const base = withTopic();
  const unknownTopic = () => build([partitionChange(testUuid(99), 0, { isr: [1] })], base);
  assert.throws(
    unknownTopic,
    (error) => error instanceof MetadataReplayError && error.offset === 2,
  );
  const unknownPartition = () => build([partitionChange(TOPIC, 7, { isr: [1] })], base);
  assert.throws(unknownPartition, MetadataReplayError);
  assert.throws(() => build([partitionRecord(testUuid(98), 0, [1])], base), MetadataReplayError);
  assert.throws(() => build([removeTopic(testUuid(97))], base), MetadataReplayError);
});

test("RemoveTopicRecord removes the topic, its partitions and its configs", () => {
  const base = build(
    [configRecord(ConfigResourceType.TOPIC, "orders", "retention.ms", "1000")],
    withTopic(),
  );
  assert.equal(base.configs.resources.size, 1);
  const delta = new MetadataDelta(base);
  delta.replay(removeTopic(TOPIC));
  const image = delta.apply(provenance(3));
  assert.equal(image.topics.byId.size, 0);
  assert.equal(image.topics.byName.size, 0);
  assert.equal(image.configs.resources.size, 0);
  assert.deepEqual([...(delta.topicsDelta?.deletedTopicIds ?? [])], [TOPIC]);
  assert.equal(delta.topicsDelta?.topicWasDeleted("orders"), true);
});

test("a topic created and removed in one delta leaves nothing behind, its configs included", () => {
  const image = build([
    topicRecord("orders", TOPIC),
    configRecord(ConfigResourceType.TOPIC, "orders", "cleanup.policy", "compact"),
    removeTopic(TOPIC),
  ]);
  assert.equal(image.topics.byId.size, 0);
  assert.equal(image.configs.resources.size, 0);
});

test("ConfigRecord sets a key and a null value deletes it", () => {
  const image = build([
    configRecord(ConfigResourceType.BROKER, "", "log.retention.ms", "5"),
    configRecord(ConfigResourceType.BROKER, "1", "a", "1"),
    configRecord(ConfigResourceType.BROKER, "1", "a", null),
  ]);
  const key = configResourceKey({ type: ConfigResourceType.BROKER, name: "" });
  assert.equal(image.configs.resources.get(key)?.values.get("log.retention.ms"), "5");
  assert.equal(image.configs.resources.size, 1, "a resource with no config left disappears");
});

test("FeatureLevelRecord sets metadata.version apart and removes other features at level 0", () => {
  const image = build([featureLevel("metadata.version", 21), featureLevel("kraft.version", 1)]);
  assert.equal(image.features.metadataVersion, 21);
  assert.equal(image.features.finalizedLevels.get("kraft.version"), 1);
  const removed = build([featureLevel("kraft.version", 0)], image);
  assert.equal(removed.features.finalizedLevels.size, 0);
  assert.equal(removed.features.metadataVersion, 21);
});

test("ProducerIdsRecord sets the next producer id block start", () => {
  const record = full({
    type: T.ProducerIdsRecord,
    data: { brokerId: 1, brokerEpoch: 3, nextProducerId: 2000 },
  });
  assert.equal(build([record]).producerIds.nextProducerId, 2000);
  assert.equal(EMPTY_IMAGE.producerIds.nextProducerId, -1);
});

test("ClientQuotaRecord sets and removes quotas of an entity", () => {
  const entity = [
    { entityType: "user", entityName: "alice" },
    { entityType: "client-id", entityName: null },
  ];
  const set = full({
    type: T.ClientQuotaRecord,
    data: { entity, key: "producer_byte_rate", value: 1024 },
  });
  const image = build([set]);
  const [quota] = [...image.clientQuotas.entities.values()];
  assert.equal(quota?.quotas.get("producer_byte_rate"), 1024);
  assert.deepEqual(
    quota?.entity.map((part) => part.entityType),
    ["client-id", "user"],
  );
  const reversed = entity.slice().reverse();
  const remove = full({
    type: T.ClientQuotaRecord,
    data: { entity: reversed, key: "producer_byte_rate", remove: true },
  });
  assert.equal(build([remove], image).clientQuotas.entities.size, 0);
});

test("ACL, SCRAM and delegation token records add and remove their entries", () => {
  const acl = full({
    type: T.AccessControlEntryRecord,
    data: {
      id: testUuid(8),
      resourceType: 2,
      resourceName: "t",
      patternType: 3,
      principal: "User:a",
      host: "*",
      operation: 3,
      permissionType: 3,
    },
  });
  const scram = full({
    type: T.UserScramCredentialRecord,
    data: {
      name: "alice",
      mechanism: 1,
      salt: new Uint8Array([1]),
      storedKey: new Uint8Array([2]),
      serverKey: new Uint8Array([3]),
      iterations: 4096,
    },
  });
  const token = full({
    type: T.DelegationTokenRecord,
    data: {
      owner: "User:a",
      requester: "User:a",
      renewers: [],
      issueTimestamp: 1,
      maxTimestamp: 3,
      expirationTimestamp: 2,
      tokenId: "tok",
    },
  });
  const image = build([acl, scram, token]);
  assert.equal(image.security.acls.size, 1);
  assert.equal(
    image.security.scramCredentials.get(scramCredentialKey({ mechanism: 1, name: "alice" }))
      ?.iterations,
    4096,
  );
  assert.equal(image.security.delegationTokens.get("tok")?.maxTimestamp, 3);
  const removed = build(
    [
      full({ type: T.RemoveAccessControlEntryRecord, data: { id: testUuid(8) } }),
      full({ type: T.RemoveUserScramCredentialRecord, data: { name: "alice", mechanism: 1 } }),
      full({ type: T.RemoveDelegationTokenRecord, data: { tokenId: "tok" } }),
    ],
    image,
  );
  assert.equal(
    removed.security.acls.size +
      removed.security.scramCredentials.size +
      removed.security.delegationTokens.size,
    0,
  );
  const unknownAcl = full({ type: T.RemoveAccessControlEntryRecord, data: { id: testUuid(9) } });
  assert.throws(() => build([unknownAcl], image), MetadataReplayError);
});

test("NoOp, ZkMigrationState and transaction markers change only what they state", () => {
  const base = withTopic();
  const image = build(
    [
      full({ type: T.NoOpRecord, data: {} }),
      full({ type: T.BeginTransactionRecord, data: { name: "x" } }),
      full({ type: T.EndTransactionRecord, data: {} }),
      full({ type: T.ZkMigrationStateRecord, data: { zkMigrationState: 2 } }),
    ],
    base,
  );
  assert.equal(image.topics, base.topics);
  assert.equal(image.cluster, base.cluster);
  assert.equal(image.features.zkMigrationState, 2);
  assert.equal(image.provenance.lastContainedOffset, 5);
});

test("an image no record touched keeps every part by reference", () => {
  const base = withTopic();
  const image = new MetadataDelta(base).apply(provenance(9));
  assert.equal(image.topics, base.topics);
  assert.equal(image.configs, base.configs);
  assert.equal(image.features, base.features);
  assert.deepEqual(image.provenance, provenance(9));
});
