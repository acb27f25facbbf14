import type { VersionRange } from "./schema/types.js";

/**
 * Which parts of a request an error response answers element by element, per API: the facts
 * behind Kafka's `AbstractRequest.getErrorResponse`, which puts the error in each topic,
 * partition, resource or group the request named, keyed as the request named it.
 */

/** The key that copies a request element that is a plain value (a name, a partition index). */
export const ELEMENT_ITSELF = ".";

/** How one response array answers one request array, one response element per request element. */
export interface ArrayMirror {
  /** The response array field (at this level of the response). */
  readonly response: string;
  /** The request array field (at the matching level of the request). */
  readonly request: string;
  /** Response field ← request field copied into each element; `ELEMENT_ITSELF` for values. */
  readonly keys: Readonly<Record<string, string>>;
  /** Fields Kafka sets to something other than the schema's default in an error element. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** The mirrors of arrays nested in each element. */
  readonly nested?: readonly ArrayMirror[];
  /** The request versions the mirror applies to, when not all of them. */
  readonly versions?: VersionRange;
}

const TOPIC_NAME = { name: "name" } as const;
const PARTITION_INDEX = { partitionIndex: "partitionIndex" } as const;
const RESOURCE = { resourceType: "resourceType", resourceName: "resourceName" } as const;
const RESOURCES: ArrayMirror = { response: "responses", request: "resources", keys: RESOURCE };

/** Topics and partitions named `topics`/`partitions` with `name`/`partitionIndex` on both sides. */
function topicPartitions(values?: Readonly<Record<string, unknown>>): ArrayMirror {
  const partitions: ArrayMirror = {
    response: "partitions",
    request: "partitions",
    keys: PARTITION_INDEX,
    ...(values === undefined ? {} : { values }),
  };
  return { response: "topics", request: "topics", keys: TOPIC_NAME, nested: [partitions] };
}

/** `topics` by name, each with a list of plain partition indexes in `requestPartitions`. */
function topicPartitionIndexes(
  requestPartitions: string,
  values?: Readonly<Record<string, unknown>>,
): ArrayMirror {
  const partitions: ArrayMirror = {
    response: "partitions",
    request: requestPartitions,
    keys: { partitionIndex: ELEMENT_ITSELF },
    ...(values === undefined ? {} : { values }),
  };
  return { response: "topics", request: "topics", keys: TOPIC_NAME, nested: [partitions] };
}

/** Share-group state APIs: results per topic id and partition. */
const SHARE_STATE: readonly ArrayMirror[] = [
  {
    response: "results",
    request: "topics",
    keys: { topicId: "topicId" },
    nested: [{ response: "partitions", request: "partitions", keys: { partition: "partition" } }],
  },
];

/**
 * The mirrors of each API whose error response names what the request named. APIs absent here
 * answer with the top-level errorCode alone, when their response has one in that version.
 */
export const ERROR_MIRRORS: ReadonlyMap<number, readonly ArrayMirror[]> = new Map<
  number,
  readonly ArrayMirror[]
>([
  [0, [produceMirror()]],
  [1, [fetchMirror()]],
  [2, [topicPartitions({ timestamp: -1, offset: -1 })]],
  [3, [{ response: "topics", request: "topics", keys: { name: "name", topicId: "topicId" } }]],
  [8, [topicPartitions()]],
  [9, offsetFetchMirrors()],
  [10, [{ response: "coordinators", request: "coordinatorKeys", keys: { key: ELEMENT_ITSELF } }]],
  [15, [{ response: "groups", request: "groups", keys: { groupId: ELEMENT_ITSELF } }]],
  [19, [{ response: "topics", request: "topics", keys: TOPIC_NAME }]],
  [20, deleteTopicsMirrors()],
  [21, [topicPartitions({ lowWatermark: -1 })]],
  [23, [offsetForLeaderEpochMirror()]],
  [24, [addPartitionsToTxnMirror()]],
  [27, [writeTxnMarkersMirror()]],
  [28, [topicPartitions()]],
  [30, [{ response: "results", request: "creations", keys: {} }]],
  [31, [{ response: "filterResults", request: "filters", keys: {} }]],
  [32, [{ response: "results", request: "resources", keys: RESOURCE }]],
  [33, [RESOURCES]],
  [37, [{ response: "results", request: "topics", keys: TOPIC_NAME }]],
  [42, [{ response: "results", request: "groupsNames", keys: { groupId: ELEMENT_ITSELF } }]],
  [43, [electLeadersMirror()]],
  [44, [RESOURCES]],
  [45, [{ ...topicPartitions(), response: "responses" }]],
  [49, [{ response: "entries", request: "entries", keys: { entity: "entity" } }]],
  [57, [{ response: "results", request: "featureUpdates", keys: { feature: "feature" } }]],
  [61, [topicPartitionIndexes("partitionIndexes")]],
  [65, [describeTransactionsMirror()]],
  [69, [{ response: "groups", request: "groupIds", keys: { groupId: ELEMENT_ITSELF } }]],
  [75, [{ response: "topics", request: "topics", keys: TOPIC_NAME }]],
  [77, [{ response: "groups", request: "groupIds", keys: { groupId: ELEMENT_ITSELF } }]],
  [83, SHARE_STATE],
  [84, SHARE_STATE],
  [85, SHARE_STATE],
  [86, SHARE_STATE],
  [87, SHARE_STATE],
]);

function produceMirror(): ArrayMirror {
  // Kafka's PartitionResponse(error) carries INVALID_OFFSET (-1) as its base offset.
  const partitions: ArrayMirror = {
    response: "partitionResponses",
    request: "partitionData",
    keys: { index: "index" },
    values: { baseOffset: -1 },
  };
  return { response: "responses", request: "topicData", keys: TOPIC_NAME, nested: [partitions] };
}

function fetchMirror(): ArrayMirror {
  // From v13 Kafka's FetchRequest.getErrorResponse sets only the top-level error and returns no
  // partitions; before, every partition carries the error too (v0-v6 have no top-level code).
  const partitions: ArrayMirror = {
    response: "partitions",
    request: "partitions",
    keys: { partitionIndex: "partition" },
    values: { highWatermark: -1 },
  };
  return {
    response: "responses",
    request: "topics",
    keys: { topic: "topic" },
    nested: [partitions],
    versions: [0, 12],
  };
}

function offsetFetchMirrors(): readonly ArrayMirror[] {
  // v0-v7 answer per partition (and at the top level from v2); v8+ answer per group.
  const byTopic = topicPartitionIndexes("partitionIndexes", { committedOffset: -1 });
  return [byTopic, { response: "groups", request: "groups", keys: { groupId: "groupId" } }];
}

function deleteTopicsMirrors(): readonly ArrayMirror[] {
  // v0-v5 name topics by plain strings, v6+ by name and topic id.
  return [
    { response: "responses", request: "topicNames", keys: { name: ELEMENT_ITSELF } },
    { response: "responses", request: "topics", keys: { name: "name", topicId: "topicId" } },
  ];
}

function offsetForLeaderEpochMirror(): ArrayMirror {
  const partitions: ArrayMirror = {
    response: "partitions",
    request: "partitions",
    keys: { partition: "partition" },
  };
  return { response: "topics", request: "topics", keys: { topic: "topic" }, nested: [partitions] };
}

function addPartitionsToTxnMirror(): ArrayMirror {
  // From v4 Kafka answers a whole batch with the top-level error alone.
  const partitions: ArrayMirror = {
    response: "resultsByPartition",
    request: "partitions",
    keys: { partitionIndex: ELEMENT_ITSELF },
  };
  return {
    response: "resultsByTopicV3AndBelow",
    request: "v3AndBelowTopics",
    keys: TOPIC_NAME,
    nested: [partitions],
  };
}

function writeTxnMarkersMirror(): ArrayMirror {
  return {
    response: "markers",
    request: "markers",
    keys: { producerId: "producerId" },
    nested: [topicPartitionIndexes("partitionIndexes")],
  };
}

function electLeadersMirror(): ArrayMirror {
  const partitions: ArrayMirror = {
    response: "partitionResult",
    request: "partitions",
    keys: { partitionId: ELEMENT_ITSELF },
  };
  return {
    response: "replicaElectionResults",
    request: "topicPartitions",
    keys: { topic: "topic" },
    nested: [partitions],
  };
}

function describeTransactionsMirror(): ArrayMirror {
  return {
    response: "transactionStates",
    request: "transactionalIds",
    keys: { transactionalId: ELEMENT_ITSELF },
  };
}
