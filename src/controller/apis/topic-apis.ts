/**
 * The topic APIs: CreateTopics (19, v0-7), DeleteTopics (20, v0-6) and CreatePartitions (37,
 * v0-3), the ranges Kafka 3.7-3.9 controllers advertise (and every version the clients of
 * CLIENTS.md send). Each is a write of the active controller; the error response names every
 * topic of the request with the error, as Kafka's getErrorResponse does.
 */
import { ZERO_UUID } from "../../common/index.js";
import { ApiKey } from "../../protocol/index.js";
import { createPartitions, createTopics, deleteTopics } from "../topics/index.js";
import { writeApi } from "./controller-api.js";

/** CreateTopics: topics with their configs and placed partitions. */
export const createTopicsApi = writeApi(ApiKey.CreateTopics, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 7,
  compute: (context, request) =>
    createTopics(
      {
        image: context.image,
        random: context.random,
        defaults: context.settings.topicDefaults,
        staticConfig: context.settings.staticConfig,
      },
      request,
    ),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    topics: request.topics.map((topic) => ({
      name: topic.name,
      topicId: ZERO_UUID,
      errorCode,
      errorMessage,
      topicConfigErrorCode: 0,
      numPartitions: -1,
      replicationFactor: -1,
      configs: [],
    })),
  }),
});

/** DeleteTopics: by name before v6, by name or topic id from v6. */
export const deleteTopicsApi = writeApi(ApiKey.DeleteTopics, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 6,
  compute: (context, request, version) => deleteTopics(context.image, request, version),
  errorResponse: (request, version, errorCode, errorMessage) => {
    const topics =
      version >= 6
        ? request.topics.map((topic) => ({ name: topic.name, topicId: topic.topicId }))
        : request.topicNames.map((name) => ({ name, topicId: ZERO_UUID as string }));
    return {
      throttleTimeMs: 0,
      responses: topics.map((topic) => ({ ...topic, errorCode, errorMessage })),
    };
  },
});

/** CreatePartitions: grow topics' partition counts. */
export const createPartitionsApi = writeApi(ApiKey.CreatePartitions, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 3,
  compute: (context, request) =>
    createPartitions({ image: context.image, random: context.random }, request),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    results: request.topics.map((topic) => ({ name: topic.name, errorCode, errorMessage })),
  }),
});
