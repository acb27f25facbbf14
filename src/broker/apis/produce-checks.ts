/**
 * The checks of a Produce before its partitions are appended: the refusal of the whole request
 * (acks; transactional records without a transactional id, or without WRITE on it), and the
 * partitions refused one by one.
 */
import { ErrorCode } from "../../common/index.js";
import { AclOperation, AclResourceType } from "../../metadata/index.js";
import { iterateBatches, type ProduceRequest } from "../../protocol/index.js";
import type { ProduceEntry } from "../../replication/index.js";
import { topicPartitionKey } from "../purgatory/delayed-operation.js";
import type { HandlerContext } from "../router/handler.js";

/** The refusal of the whole request, if any. */
export function requestRefusal(
  request: ProduceRequest,
  context: HandlerContext,
): { readonly errorCode: number; readonly message: string } | undefined {
  if (request.acks !== 0 && request.acks !== 1 && request.acks !== -1) {
    return { errorCode: ErrorCode.INVALID_REQUIRED_ACKS, message: `acks ${request.acks}` };
  }
  // Kafka's KafkaApis: transactional records need a transactional id the principal may WRITE.
  const { transactionalId } = request;
  const { authorization } = context;
  if (
    hasTransactionalRecords(request) &&
    (transactionalId === null ||
      !authorization.authorize(
        AclOperation.WRITE,
        AclResourceType.TRANSACTIONAL_ID,
        transactionalId,
      ))
  ) {
    const message = "Transactional Id authorization failed.";
    return { errorCode: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, message };
  }
  return undefined;
}

/** Whether the first batch of any partition's records is transactional (Kafka's RequestUtils). */
function hasTransactionalRecords(request: ProduceRequest): boolean {
  return request.topicData.some((topic) =>
    topic.partitionData.some(({ records }) => {
      if (records === null) return false;
      const first = iterateBatches(records, { maxBatchBytes: records.length }).next().value;
      return first?.kind === "batch" && first.header.isTransactional;
    }),
  );
}

/**
 * The partitions to append, and those refused before: of a topic the principal may not WRITE
 * (TOPIC_AUTHORIZATION_FAILED, checked before the topic's existence as Kafka does), or whose
 * records field is null (INVALID_RECORD).
 */
export function entriesOf(
  request: ProduceRequest,
  isWritable: (topic: string) => boolean,
): {
  readonly entries: ProduceEntry[];
  readonly malformed: Map<string, number>;
} {
  const entries: ProduceEntry[] = [];
  const malformed = new Map<string, number>();
  for (const topic of request.topicData) {
    const isAuthorized = isWritable(topic.name);
    for (const partition of topic.partitionData) {
      const topicPartition = { topic: topic.name, partition: partition.index };
      if (!isAuthorized) {
        const key = topicPartitionKey(topic.name, partition.index);
        malformed.set(key, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
      } else if (partition.records === null) {
        malformed.set(topicPartitionKey(topic.name, partition.index), ErrorCode.INVALID_RECORD);
      } else entries.push({ topicPartition, records: partition.records });
    }
  }
  return { entries, malformed };
}
