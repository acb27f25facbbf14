/**
 * DeleteTopics (v0-v6): by name (v0-v5, and v6 entries with a name) or by topic id (v6). Each
 * topic found gets a RemoveTopicRecord, which also removes its partitions and configs when
 * replayed; an unknown name is UNKNOWN_TOPIC_OR_PARTITION, an unknown id UNKNOWN_TOPIC_ID, and a
 * topic named twice (or an entry with both or neither of name and id) INVALID_REQUEST.
 */
import { ErrorCode, ZERO_UUID } from "../../common/index.js";
import { shownTopicName } from "./topic-names.js";
import type { Uuid } from "../../common/index.js";
import type { MetadataImage, TopicImage } from "../../metadata/index.js";
import type {
  DeleteTopicsRequest,
  DeleteTopicsResponse,
  DeleteTopicsResponseDeletableTopicResult,
  MetadataRecord,
} from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/index.js";
import { removeTopicRecord } from "./topic-records.js";

/** One topic the request names, by name or by id. */
type TopicReference = { readonly name: string | null; readonly topicId: Uuid };

/** Handles a DeleteTopics request; `version` decides whether names or ids are read. */
export function deleteTopics(
  image: MetadataImage,
  request: DeleteTopicsRequest,
  version: number,
): ControllerResult<DeleteTopicsResponse> {
  const references: TopicReference[] =
    version >= 6
      ? request.topics.map((topic) => ({ name: topic.name, topicId: topic.topicId as Uuid }))
      : request.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
  const counts = new Map<string, number>();
  const resolved = references.map((reference) => {
    const found = findTopic(image, reference);
    if (found.kind === "found") counts.set(found.topic.id, (counts.get(found.topic.id) ?? 0) + 1);
    return { reference, found };
  });
  const records: MetadataRecord[] = [];
  const responses = resolved.map(
    ({ reference, found }): DeleteTopicsResponseDeletableTopicResult => {
      if (found.kind === "refused") {
        return {
          name: reference.name,
          topicId: reference.topicId,
          errorCode: found.errorCode,
          errorMessage: found.errorMessage,
        };
      }
      const { topic } = found;
      if ((counts.get(topic.id) ?? 0) > 1) {
        const errorMessage = `topic ${shownTopicName(topic.name)} is named more than once`;
        return {
          name: topic.name,
          topicId: topic.id,
          errorCode: ErrorCode.INVALID_REQUEST,
          errorMessage,
        };
      }
      records.push(removeTopicRecord(topic.id));
      return { name: topic.name, topicId: topic.id, errorCode: ErrorCode.NONE, errorMessage: null };
    },
  );
  return { records, response: { throttleTimeMs: 0, responses } };
}

type Lookup =
  | { readonly kind: "found"; readonly topic: TopicImage }
  | { readonly kind: "refused"; readonly errorCode: number; readonly errorMessage: string };

function findTopic(image: MetadataImage, reference: TopicReference): Lookup {
  const hasId = reference.topicId !== ZERO_UUID;
  if (reference.name !== null && hasId) {
    return {
      kind: "refused",
      errorCode: ErrorCode.INVALID_REQUEST,
      errorMessage: "give a topic name or a topic id, not both",
    };
  }
  if (reference.name !== null) {
    const topic = image.topics.byName.get(reference.name);
    if (topic !== undefined) return { kind: "found", topic };
    const errorMessage = `topic ${shownTopicName(reference.name)} does not exist`;
    return { kind: "refused", errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage };
  }
  if (!hasId) {
    return {
      kind: "refused",
      errorCode: ErrorCode.INVALID_REQUEST,
      errorMessage: "a topic needs a name or a topic id",
    };
  }
  const topic = image.topics.byId.get(reference.topicId);
  if (topic !== undefined) return { kind: "found", topic };
  const errorMessage = `no topic has id ${reference.topicId}`;
  return { kind: "refused", errorCode: ErrorCode.UNKNOWN_TOPIC_ID, errorMessage };
}
