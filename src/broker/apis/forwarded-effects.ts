/**
 * What a broker's image must show before it relays the controller's answer to a topic change,
 * so that the client's next request to the same broker sees its own change: kafkajs's
 * createTopics asks the broker it created through for the new topics' metadata right after, and
 * fails on UNKNOWN_TOPIC_OR_PARTITION. The controller answers once the change is committed, but
 * this broker may learn of the commit after the answer arrives, so waiting for the high
 * watermark it knows of is not enough; each answer's effect is checked on the image instead.
 */
import type { Uuid } from "../../common/index.js";
import {
  METADATA_VERSION_FEATURE,
  clientQuotaEntityKey,
  scramCredentialKey,
  type MetadataImage,
} from "../../metadata/index.js";
import type {
  AlterClientQuotasRequest,
  AlterClientQuotasResponse,
  AlterUserScramCredentialsRequest,
  AlterUserScramCredentialsResponse,
  CreatePartitionsRequest,
  CreatePartitionsResponse,
  CreateTopicsRequest,
  CreateTopicsResponse,
  DeleteTopicsResponse,
  MessageInput,
  UpdateFeaturesRequest,
  UpdateFeaturesResponse,
} from "../../protocol/index.js";

/** The topics CreateTopics reports created exist in `image`, every partition of each. */
export function createdTopicsShown(
  request: MessageInput<CreateTopicsRequest>,
  response: CreateTopicsResponse,
  image: MetadataImage,
): boolean {
  if (request.validateOnly === true) return true;
  return response.topics.every((topic) => {
    if (topic.errorCode !== 0) return true;
    const found = image.topics.byName.get(topic.name);
    if (found === undefined) return false;
    return topic.numPartitions < 0 || found.partitions.size >= topic.numPartitions;
  });
}

/** The topics DeleteTopics reports deleted are gone from `image`, by name and by id. */
export function deletedTopicsShown(response: DeleteTopicsResponse, image: MetadataImage): boolean {
  return response.responses.every((topic) => {
    if (topic.errorCode !== 0) return true;
    if (topic.name !== null && image.topics.byName.has(topic.name)) return false;
    return !image.topics.byId.has(topic.topicId as Uuid);
  });
}

/** The topics CreatePartitions reports grown have at least the partitions asked for. */
export function addedPartitionsShown(
  request: MessageInput<CreatePartitionsRequest>,
  response: CreatePartitionsResponse,
  image: MetadataImage,
): boolean {
  if (request.validateOnly === true) return true;
  return response.results.every((result) => {
    if (result.errorCode !== 0) return true;
    const asked = request.topics?.find((topic) => topic.name === result.name);
    const found = image.topics.byName.get(result.name);
    return asked === undefined || (found?.partitions.size ?? 0) >= (asked.count ?? 0);
  });
}

/** The levels UpdateFeatures reports finalized are the levels of `image`. */
export function featureLevelsShown(
  request: MessageInput<UpdateFeaturesRequest>,
  response: UpdateFeaturesResponse,
  image: MetadataImage,
): boolean {
  if (request.validateOnly === true || response.errorCode !== 0) return true;
  return (request.featureUpdates ?? []).every(({ feature, maxVersionLevel }) => {
    const { features } = image;
    const level =
      feature === METADATA_VERSION_FEATURE
        ? features.metadataVersion
        : (features.finalizedLevels.get(feature ?? "") ?? 0);
    return level === maxVersionLevel;
  });
}

/**
 * The quotas AlterClientQuotas reports altered have their new values in `image`. A repeated
 * entity is answered with one refusal, so an entity is checked by its request entries only when
 * its answer succeeded.
 */
export function clientQuotasShown(
  request: MessageInput<AlterClientQuotasRequest>,
  response: AlterClientQuotasResponse,
  image: MetadataImage,
): boolean {
  if (request.validateOnly === true) return true;
  const succeeded = new Set(
    response.entries
      .filter((entry) => entry.errorCode === 0)
      .map((entry) => clientQuotaEntityKey(entry.entity)),
  );
  return (request.entries ?? []).every((entry) => {
    // A type named twice keeps its last name, as the controller reads the entity.
    const names = new Map((entry.entity ?? []).map((p) => [p.entityType ?? "", p.entityName]));
    const entity = [...names].map(([entityType, name]) => ({
      entityType,
      entityName: name ?? null,
    }));
    const key = clientQuotaEntityKey(entity);
    if (!succeeded.has(key)) return true;
    const quotas = image.clientQuotas.entities.get(key)?.quotas;
    return (entry.ops ?? []).every(({ key: quotaKey = "", value, remove }) =>
      remove === true ? quotas?.has(quotaKey) !== true : quotas?.get(quotaKey) === value,
    );
  });
}

/**
 * The users AlterUserScramCredentials reports altered have their new state in `image`: a
 * deleted credential is gone, an upserted one holds the salt and iterations asked for. So a
 * client that logs in through this broker right after the answer uses the new credential.
 */
export function scramChangesShown(
  request: AlterUserScramCredentialsRequest,
  response: AlterUserScramCredentialsResponse,
  image: MetadataImage,
): boolean {
  const altered = new Set(response.results.filter((r) => r.errorCode === 0).map((r) => r.user));
  const credentialOf = (change: { name: string; mechanism: number }) =>
    image.security.scramCredentials.get(scramCredentialKey(change));
  const isDeleted = request.deletions.every(
    (deletion) => !altered.has(deletion.name) || credentialOf(deletion) === undefined,
  );
  const isUpserted = request.upsertions.every((upsertion) => {
    if (!altered.has(upsertion.name)) return true;
    const credential = credentialOf(upsertion);
    return (
      credential !== undefined &&
      credential.iterations === upsertion.iterations &&
      sameBytes(credential.salt, upsertion.salt)
    );
  });
  return isDeleted && isUpserted;
}

function sameBytes(left: Uint8Array, right: Uint8Array): boolean {
  return left.length === right.length && left.every((byte, index) => byte === right[index]);
}
