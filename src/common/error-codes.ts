/**
 * Kafka's protocol error codes: the number on the wire, the name Kafka's `Errors` enum gives it,
 * and whether a client may retry the request that earned it. Codes are facts of the protocol and
 * never change; names follow Apache Kafka 4.x.
 */

/** One row: the code, whether it is retriable, and a short description of our own. */
type ErrorCodeRow = readonly [code: number, isRetriable: boolean, description: string];

// One row per code. The retriable flag mirrors whether Kafka's exception class for the code is a
// RetriableException (or an InvalidMetadataException, which is one), since clients decide retries
// from that class and Sluice must send codes clients already know how to treat.
const entries = {
  UNKNOWN_SERVER_ERROR: [-1, false, "The broker failed in a way no other code describes."],
  NONE: [0, false, "Success."],
  OFFSET_OUT_OF_RANGE: [1, false, "The offset asked for is outside the partition's log."],
  CORRUPT_MESSAGE: [2, true, "A record batch failed its checksum or its structure checks."],
  UNKNOWN_TOPIC_OR_PARTITION: [3, true, "This broker does not know the topic or partition."],
  INVALID_FETCH_SIZE: [4, false, "The fetch size given is not acceptable."],
  LEADER_NOT_AVAILABLE: [
    5,
    true,
    "The partition has no leader right now, e.g. during an election.",
  ],
  NOT_LEADER_OR_FOLLOWER: [
    6,
    true,
    "This broker is not the leader (or not a replica) of the partition.",
  ],
  REQUEST_TIMED_OUT: [7, true, "The request did not complete in time."],
  BROKER_NOT_AVAILABLE: [8, false, "The broker cannot be reached."],
  REPLICA_NOT_AVAILABLE: [9, true, "A replica of the partition is not available."],
  MESSAGE_TOO_LARGE: [10, false, "A record batch is larger than the broker accepts."],
  STALE_CONTROLLER_EPOCH: [
    11,
    false,
    "The request came from a controller that is no longer active.",
  ],
  OFFSET_METADATA_TOO_LARGE: [12, false, "The metadata string of an offset commit is too long."],
  NETWORK_EXCEPTION: [13, true, "The connection closed before the response arrived."],
  COORDINATOR_LOAD_IN_PROGRESS: [14, true, "The coordinator is still loading its state."],
  COORDINATOR_NOT_AVAILABLE: [15, true, "No coordinator is available for the key."],
  NOT_COORDINATOR: [16, true, "This broker is not the coordinator for the key."],
  INVALID_TOPIC_EXCEPTION: [17, false, "The topic name is invalid or the topic is internal."],
  RECORD_LIST_TOO_LARGE: [18, false, "A batch is larger than the configured segment size."],
  NOT_ENOUGH_REPLICAS: [
    19,
    true,
    "Fewer in-sync replicas than min.insync.replicas; nothing was written.",
  ],
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: [
    20,
    true,
    "Written, but the in-sync set shrank below the minimum before acknowledgement.",
  ],
  INVALID_REQUIRED_ACKS: [21, false, "The acks value is not -1, 0 or 1."],
  ILLEGAL_GENERATION: [22, false, "The group generation in the request is not the current one."],
  INCONSISTENT_GROUP_PROTOCOL: [23, false, "The member's protocols do not match the group's."],
  INVALID_GROUP_ID: [24, false, "The group id is empty or otherwise invalid."],
  UNKNOWN_MEMBER_ID: [25, false, "The group does not know this member id."],
  INVALID_SESSION_TIMEOUT: [
    26,
    false,
    "The session timeout is outside the broker's allowed range.",
  ],
  REBALANCE_IN_PROGRESS: [27, false, "The group is rebalancing; the member must rejoin."],
  INVALID_COMMIT_OFFSET_SIZE: [28, false, "The offset commit is too large."],
  TOPIC_AUTHORIZATION_FAILED: [29, false, "Not authorized for the topic."],
  GROUP_AUTHORIZATION_FAILED: [30, false, "Not authorized for the group."],
  CLUSTER_AUTHORIZATION_FAILED: [31, false, "Not authorized for the cluster."],
  INVALID_TIMESTAMP: [32, false, "A record timestamp is outside the accepted range."],
  UNSUPPORTED_SASL_MECHANISM: [33, false, "The broker does not offer this SASL mechanism."],
  ILLEGAL_SASL_STATE: [34, false, "The request is not allowed in the current SASL state."],
  UNSUPPORTED_VERSION: [35, false, "The broker does not serve this version of the API."],
  TOPIC_ALREADY_EXISTS: [36, false, "A topic with this name exists already."],
  INVALID_PARTITIONS: [37, false, "The partition count is invalid."],
  INVALID_REPLICATION_FACTOR: [
    38,
    false,
    "The replication factor is invalid or exceeds the live brokers.",
  ],
  INVALID_REPLICA_ASSIGNMENT: [39, false, "The replica assignment is invalid."],
  INVALID_CONFIG: [40, false, "A configuration value is invalid."],
  NOT_CONTROLLER: [41, true, "This node is not the active controller."],
  INVALID_REQUEST: [42, false, "The request is malformed or not valid for this broker."],
  UNSUPPORTED_FOR_MESSAGE_FORMAT: [43, false, "The log's message format cannot serve the request."],
  POLICY_VIOLATION: [44, false, "The request breaks a configured policy."],
  OUT_OF_ORDER_SEQUENCE_NUMBER: [45, false, "A producer sequence number skipped ahead."],
  DUPLICATE_SEQUENCE_NUMBER: [46, false, "A producer sequence number was seen before."],
  INVALID_PRODUCER_EPOCH: [47, false, "The producer epoch is older than the current one."],
  INVALID_TXN_STATE: [
    48,
    false,
    "The transactional operation is not allowed in the current state.",
  ],
  INVALID_PRODUCER_ID_MAPPING: [
    49,
    false,
    "The producer id is not the one assigned to the transactional id.",
  ],
  INVALID_TRANSACTION_TIMEOUT: [
    50,
    false,
    "The transaction timeout exceeds transaction.max.timeout.ms.",
  ],
  CONCURRENT_TRANSACTIONS: [
    51,
    true,
    "Another operation on the same transaction is still in progress.",
  ],
  TRANSACTION_COORDINATOR_FENCED: [
    52,
    false,
    "The sending transaction coordinator has been replaced.",
  ],
  TRANSACTIONAL_ID_AUTHORIZATION_FAILED: [53, false, "Not authorized for the transactional id."],
  SECURITY_DISABLED: [54, false, "Security features are turned off."],
  OPERATION_NOT_ATTEMPTED: [
    55,
    false,
    "Skipped because another part of the batched request failed.",
  ],
  KAFKA_STORAGE_ERROR: [56, true, "A log directory failed on the broker."],
  LOG_DIR_NOT_FOUND: [57, false, "The named log directory is not configured on the broker."],
  SASL_AUTHENTICATION_FAILED: [58, false, "SASL authentication failed."],
  UNKNOWN_PRODUCER_ID: [59, false, "The broker holds no state for this producer id."],
  REASSIGNMENT_IN_PROGRESS: [60, false, "A partition reassignment is under way."],
  DELEGATION_TOKEN_AUTH_DISABLED: [61, false, "Delegation tokens are not enabled."],
  DELEGATION_TOKEN_NOT_FOUND: [62, false, "No such delegation token."],
  DELEGATION_TOKEN_OWNER_MISMATCH: [63, false, "The principal does not own or renew this token."],
  DELEGATION_TOKEN_REQUEST_NOT_ALLOWED: [
    64,
    false,
    "Token requests are refused on this kind of channel.",
  ],
  DELEGATION_TOKEN_AUTHORIZATION_FAILED: [65, false, "Not authorized for the delegation token."],
  DELEGATION_TOKEN_EXPIRED: [66, false, "The delegation token has expired."],
  INVALID_PRINCIPAL_TYPE: [67, false, "The principal type is not supported."],
  NON_EMPTY_GROUP: [68, false, "The group still has members."],
  GROUP_ID_NOT_FOUND: [69, false, "No such group."],
  FETCH_SESSION_ID_NOT_FOUND: [70, true, "The broker holds no fetch session with this id."],
  INVALID_FETCH_SESSION_EPOCH: [71, true, "The fetch session epoch is out of order."],
  LISTENER_NOT_FOUND: [72, true, "The leader has no listener of the name the request came in on."],
  TOPIC_DELETION_DISABLED: [73, false, "Deleting topics is turned off."],
  FENCED_LEADER_EPOCH: [74, true, "The request's leader epoch is older than the broker's."],
  UNKNOWN_LEADER_EPOCH: [75, true, "The request's leader epoch is newer than the broker's."],
  UNSUPPORTED_COMPRESSION_TYPE: [
    76,
    false,
    "The client cannot read the partition's compression type.",
  ],
  STALE_BROKER_EPOCH: [77, false, "The broker epoch in the request is out of date."],
  OFFSET_NOT_AVAILABLE: [78, true, "The new leader's high watermark has not caught up yet."],
  MEMBER_ID_REQUIRED: [79, false, "The member must rejoin with the member id it was given."],
  PREFERRED_LEADER_NOT_AVAILABLE: [80, true, "The preferred leader cannot take leadership now."],
  GROUP_MAX_SIZE_REACHED: [81, false, "The group is full."],
  FENCED_INSTANCE_ID: [82, false, "Another member has registered with the same group.instance.id."],
  ELIGIBLE_LEADERS_NOT_AVAILABLE: [83, true, "No eligible replica can become leader."],
  ELECTION_NOT_NEEDED: [84, false, "The partition already has the wanted leader."],
  NO_REASSIGNMENT_IN_PROGRESS: [85, false, "There is no reassignment to cancel."],
  GROUP_SUBSCRIBED_TO_TOPIC: [
    86,
    false,
    "Offsets cannot be deleted while the group is subscribed to the topic.",
  ],
  INVALID_RECORD: [87, false, "A record failed the broker's validation."],
  UNSTABLE_OFFSET_COMMIT: [88, true, "Pending transactional offsets must settle first."],
  THROTTLING_QUOTA_EXCEEDED: [89, true, "A throttling quota was exceeded."],
  PRODUCER_FENCED: [90, false, "A newer producer with the same transactional id has taken over."],
  RESOURCE_NOT_FOUND: [91, false, "The request names a resource that does not exist."],
  DUPLICATE_RESOURCE: [92, false, "The request names the same resource twice."],
  UNACCEPTABLE_CREDENTIAL: [93, false, "The credential does not meet the acceptance criteria."],
  INCONSISTENT_VOTER_SET: [94, false, "Sender or receiver is not in the expected voter set."],
  INVALID_UPDATE_VERSION: [95, false, "The feature update version is invalid."],
  FEATURE_UPDATE_FAILED: [96, false, "Finalized features could not be updated."],
  PRINCIPAL_DESERIALIZATION_FAILURE: [
    97,
    false,
    "A forwarded request's principal could not be read.",
  ],
  SNAPSHOT_NOT_FOUND: [98, false, "No such snapshot."],
  POSITION_OUT_OF_RANGE: [99, false, "The position is outside the snapshot."],
  UNKNOWN_TOPIC_ID: [100, true, "This broker does not know the topic id."],
  DUPLICATE_BROKER_REGISTRATION: [
    101,
    false,
    "The broker id is already registered by a live broker.",
  ],
  BROKER_ID_NOT_REGISTERED: [102, false, "The broker id is not registered."],
  INCONSISTENT_TOPIC_ID: [103, true, "The topic id does not match the log's."],
  INCONSISTENT_CLUSTER_ID: [104, false, "The cluster id does not match this node's."],
  TRANSACTIONAL_ID_NOT_FOUND: [105, false, "No such transactional id."],
  FETCH_SESSION_TOPIC_ID_ERROR: [
    106,
    true,
    "The fetch session mixes topic ids and names inconsistently.",
  ],
  INELIGIBLE_REPLICA: [107, false, "The proposed in-sync set contains an ineligible replica."],
  NEW_LEADER_ELECTED: [108, false, "The partition changed, but a new leader was elected with it."],
  OFFSET_MOVED_TO_TIERED_STORAGE: [109, false, "The offset is only in tiered storage."],
  FENCED_MEMBER_EPOCH: [110, false, "The member epoch is fenced; the member must rejoin."],
  UNRELEASED_INSTANCE_ID: [111, false, "The instance id is still held by another member."],
  UNSUPPORTED_ASSIGNOR: [112, false, "The group does not support the assignor or its version."],
  STALE_MEMBER_EPOCH: [113, false, "The member epoch is stale; the member must refresh it."],
  MISMATCHED_ENDPOINT_TYPE: [114, false, "The request reached an endpoint of the wrong kind."],
  UNSUPPORTED_ENDPOINT_TYPE: [115, false, "This kind of endpoint is not supported yet."],
  UNKNOWN_CONTROLLER_ID: [116, false, "No such controller id."],
  UNKNOWN_SUBSCRIPTION_ID: [117, false, "The telemetry subscription id is unknown or outdated."],
  TELEMETRY_TOO_LARGE: [118, false, "The pushed telemetry is too large."],
  INVALID_REGISTRATION: [119, false, "The controller rejected the broker registration."],
  TRANSACTION_ABORTABLE: [120, false, "The transaction failed; the client may abort it and go on."],
  INVALID_RECORD_STATE: [121, false, "The record's state does not allow the acknowledgement."],
  SHARE_SESSION_NOT_FOUND: [122, true, "The broker holds no such share session."],
  INVALID_SHARE_SESSION_EPOCH: [123, true, "The share session epoch is out of order."],
  FENCED_STATE_EPOCH: [124, false, "The share-group state epoch does not match."],
  INVALID_VOTER_KEY: [125, false, "The voter key does not match the receiving replica."],
  DUPLICATE_VOTER: [126, false, "The voter is already in the voter set."],
  VOTER_NOT_FOUND: [127, false, "The voter is not in the voter set."],
  INVALID_REGULAR_EXPRESSION: [128, false, "The regular expression is invalid."],
  REBOOTSTRAP_REQUIRED: [129, false, "The client's metadata is stale; it must bootstrap again."],
  STREAMS_INVALID_TOPOLOGY: [130, false, "The streams topology is invalid."],
  STREAMS_INVALID_TOPOLOGY_EPOCH: [131, false, "The streams topology epoch is invalid."],
  STREAMS_TOPOLOGY_FENCED: [132, false, "The streams topology epoch is outdated."],
  SHARE_SESSION_LIMIT_REACHED: [133, true, "The broker holds as many share sessions as it allows."],
} as const satisfies Record<string, ErrorCodeRow>;

/** The name of a Kafka error code, as in Kafka's `Errors` enum. */
export type ErrorName = keyof typeof entries;

type CodeOf<Name extends ErrorName> = (typeof entries)[Name][0];

export type KnownErrorCode = CodeOf<ErrorName>;

export interface ErrorCodeInfo {
  readonly code: KnownErrorCode;
  readonly name: ErrorName;
  readonly isRetriable: boolean;
  readonly description: string;
}

const rows = Object.entries(entries) as [ErrorName, ErrorCodeRow][];

/** Kafka error codes by name, e.g. `ErrorCode.NOT_LEADER_OR_FOLLOWER === 6`. */
export const ErrorCode: { readonly [Name in ErrorName]: CodeOf<Name> } = Object.freeze(
  Object.fromEntries(rows.map(([name, row]) => [name, row[0]])) as {
    [Name in ErrorName]: CodeOf<Name>;
  },
);

const byCode: ReadonlyMap<number, ErrorCodeInfo> = new Map(
  rows.map(([name, [code, isRetriable, description]]) => [
    code,
    { code: code as KnownErrorCode, name, isRetriable, description },
  ]),
);

/**
 * The name of `code`, or `UNKNOWN_ERROR_CODE(<code>)` for a code the table does not hold (a newer
 * broker or a corrupt response), so logs always show something readable.
 */
export function errorName(code: number): string {
  return byCode.get(code)?.name ?? `UNKNOWN_ERROR_CODE(${code})`;
}

export function isKnownErrorCode(code: number): code is KnownErrorCode {
  return byCode.has(code);
}

/**
 * Whether a client may retry the request that received `code`. Unknown codes are not retriable,
 * as Kafka's clients treat them (they map them to UNKNOWN_SERVER_ERROR).
 */
export function isRetriable(code: number): boolean {
  return byCode.get(code)?.isRetriable ?? false;
}

/** The table's row for `code`, or undefined for a code Kafka does not define. */
export function errorCodeInfo(code: number): ErrorCodeInfo | undefined {
  return byCode.get(code);
}

/** Every row of the table, in ascending code order. */
export function allErrorCodes(): readonly ErrorCodeInfo[] {
  return [...byCode.values()].sort((a, b) => a.code - b.code);
}
