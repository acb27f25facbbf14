/**
 * DescribeClientQuotas (48, v0-1; v1 is flexible) on a broker: answered from the broker's own
 * metadata image, as Kafka's brokers answer it (the controller listener does not serve it).
 */
import { describeClientQuotas } from "../../controller/index.js";
import { ApiKey } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { AclOperation } from "../../metadata/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export function describeClientQuotasHandler(
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeClientQuotas> {
  return defineHandler(ApiKey.DescribeClientQuotas, {
    minVersion: 0,
    maxVersion: 1,
    // As Kafka's KafkaApis: DESCRIBE_CONFIGS on the cluster.
    authorization: { kind: "cluster", operation: AclOperation.DESCRIBE_CONFIGS },
    handle: (request) => respond(describeClientQuotas(metadataCache.image, request)),
    errorResponse: (_request, _context, errorCode) =>
      respond({ throttleTimeMs: 0, errorCode, errorMessage: null, entries: null }),
  });
}
