/**
 * DescribeUserScramCredentials (50, v0, KIP-554) on a broker: answered from the broker's own
 * metadata image, as Kafka's KRaft broker answers it from its metadata cache, so a credential
 * shows here once this broker has replayed its record.
 */
import { AclOperation } from "../../metadata/index.js";
import { describeUserScramCredentials } from "../../controller/index.js";
import { ApiKey } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

export function describeUserScramCredentialsHandler(
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeUserScramCredentials> {
  return defineHandler(ApiKey.DescribeUserScramCredentials, {
    minVersion: 0,
    maxVersion: 0,
    // As Kafka's KafkaApis: DESCRIBE on the cluster.
    authorization: { kind: "cluster", operation: AclOperation.DESCRIBE },
    handle: (request) => respond(describeUserScramCredentials(metadataCache.image, request)),
  });
}
