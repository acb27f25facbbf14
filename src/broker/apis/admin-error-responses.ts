/**
 * Kafka's getErrorResponse of the admin APIs a broker forwards, and of DescribeConfigs: the
 * error code on every topic or resource the request named, every other field at its default.
 * The router sends these when a handler fails, the forwarder when the controller cannot be
 * reached in time.
 */
import { ZERO_UUID } from "../../common/index.js";

type Body = Record<string, unknown>;
type ErrorBody = (
  request: Body,
  version: number,
  errorCode: number,
  message: string | null,
) => object;

function listOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

const perResource: ErrorBody = (request, _version, errorCode, errorMessage) => ({
  throttleTimeMs: 0,
  responses: listOf<{ resourceType: number; resourceName: string }>(request["resources"]).map(
    ({ resourceType, resourceName }) => ({ errorCode, errorMessage, resourceType, resourceName }),
  ),
});

/** The error responses by API key. */
export const ADMIN_ERROR_RESPONSES: ReadonlyMap<number, ErrorBody> = new Map<number, ErrorBody>([
  [
    19,
    (request, _version, errorCode, errorMessage) => ({
      throttleTimeMs: 0,
      topics: listOf<{ name: string }>(request["topics"]).map(({ name }) => ({
        name,
        topicId: ZERO_UUID,
        errorCode,
        errorMessage,
        numPartitions: -1,
        replicationFactor: -1,
        configs: [],
      })),
    }),
  ],
  [
    20,
    (request, version, errorCode, errorMessage) => {
      // Before v6 topics are named in topicNames; from v6 by name or id in topics.
      const named =
        version >= 6
          ? listOf<{ name: string | null; topicId: string }>(request["topics"])
          : listOf<string>(request["topicNames"]).map((name) => ({ name, topicId: ZERO_UUID }));
      return {
        throttleTimeMs: 0,
        responses: named.map(({ name, topicId }) => ({ name, topicId, errorCode, errorMessage })),
      };
    },
  ],
  [33, perResource],
  [44, perResource],
  [
    37,
    (request, _version, errorCode, errorMessage) => ({
      throttleTimeMs: 0,
      results: listOf<{ name: string }>(request["topics"]).map(({ name }) => ({
        name,
        errorCode,
        errorMessage,
      })),
    }),
  ],
  [
    43,
    (request, _version, errorCode, errorMessage) => ({
      throttleTimeMs: 0,
      errorCode,
      replicaElectionResults: listOf<{ topic: string; partitions: number[] }>(
        request["topicPartitions"],
      ).map(({ topic, partitions }) => ({
        topic,
        partitionResult: partitions.map((partitionId) => ({
          partitionId,
          errorCode,
          errorMessage,
        })),
      })),
    }),
  ],
  [45, (_request, _version, errorCode, errorMessage) => ({ errorCode, errorMessage })],
  [46, (_request, _version, errorCode, errorMessage) => ({ errorCode, errorMessage })],
  [
    32,
    (request, _version, errorCode, errorMessage) => ({
      throttleTimeMs: 0,
      results: listOf<{ resourceType: number; resourceName: string }>(request["resources"]).map(
        ({ resourceType, resourceName }) => ({
          errorCode,
          errorMessage,
          resourceType,
          resourceName,
          configs: [],
        }),
      ),
    }),
  ],
]);

/** The error response of API `apiKey` to `request`; the API must be one of the table's. */
export function adminErrorResponse(
  apiKey: number,
  request: Body,
  version: number,
  failure: { readonly errorCode: number; readonly message: string | null },
): object {
  const build = ADMIN_ERROR_RESPONSES.get(apiKey);
  if (build === undefined) throw new RangeError(`API ${apiKey} has no admin error response`);
  return build(request, version, failure.errorCode, failure.message);
}
