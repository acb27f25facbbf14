/**
 * The per-partition checks of AddPartitionsToTxn v0-3, as Kafka's KafkaApis makes them before the
 * coordinator sees the request: a client needs WRITE on each topic, and may never add an
 * internal topic's partition (TOPIC_AUTHORIZATION_FAILED); a partition the metadata does not know
 * is UNKNOWN_TOPIC_OR_PARTITION. Any failed partition fails the whole request, the partitions
 * that passed answered OPERATION_NOT_ATTEMPTED. Versions 4 and up come from brokers, which
 * may name any topic (a group coordinator verifies its `__consumer_offsets` partition): only the
 * metadata is checked for them.
 */
import { ErrorCode } from "../../../common/index.js";
import { AclOperation, AclResourceType, type MetadataImage } from "../../../metadata/index.js";
import type { RequestAuthorization } from "../../security/index.js";
import { INTERNAL_TOPICS } from "../metadata.js";

/** Each partition's refusal when any partition fails its checks, else undefined. */
export function addPartitionsRefusal(
  partitions: readonly { readonly topic: string; readonly partition: number }[],
  image: MetadataImage,
  authorization: RequestAuthorization | "broker",
): ((topic: string, partition: number) => number) | undefined {
  const mayWrite = new Map<string, boolean>();
  const codeOf = (topic: string, partition: number): number => {
    let isAllowed = mayWrite.get(topic);
    if (isAllowed === undefined) {
      isAllowed =
        authorization === "broker" ||
        (!INTERNAL_TOPICS.has(topic) &&
          authorization.authorize(AclOperation.WRITE, AclResourceType.TOPIC, topic));
      mayWrite.set(topic, isAllowed);
    }
    if (!isAllowed) return ErrorCode.TOPIC_AUTHORIZATION_FAILED;
    const isKnown = image.topics.byName.get(topic)?.partitions.has(partition) === true;
    return isKnown ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  };
  if (partitions.every(({ topic, partition }) => codeOf(topic, partition) === ErrorCode.NONE)) {
    return undefined;
  }
  return (topic, partition) => {
    const errorCode = codeOf(topic, partition);
    return errorCode === ErrorCode.NONE ? ErrorCode.OPERATION_NOT_ATTEMPTED : errorCode;
  };
}
