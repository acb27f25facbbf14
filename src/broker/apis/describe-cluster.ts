/**
 * DescribeCluster (60, v0-1) on a broker listener: the live brokers' endpoints on that listener,
 * the cluster id, and as controller id a random live broker, as Metadata answers (KIP-919: a
 * broker serves endpoint type 1, brokers; asking it for controllers is
 * UNSUPPORTED_ENDPOINT_TYPE).
 */
import { describeCluster } from "../../controller/index.js";
import { ApiKey } from "../../protocol/index.js";
import type { MetadataCache } from "../metadata-cache/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

/** The DescribeCluster versions served, as Kafka 3.7+ brokers do. */
export const DESCRIBE_CLUSTER_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;

/** The DescribeCluster handler; the router fills the top-level error code on failure. */
export function describeClusterHandler(
  metadataCache: MetadataCache,
): ApiHandler<typeof ApiKey.DescribeCluster> {
  return defineHandler(ApiKey.DescribeCluster, {
    ...DESCRIBE_CLUSTER_VERSIONS,
    // Kafka's brokers refuse no one; the authorizer shapes the operations the answer reports.
    authorization: { kind: "handler" },
    handle: (request, context) => {
      const image = metadataCache.image;
      const response = describeCluster(
        {
          image,
          clusterId: metadataCache.clusterId,
          controllerId: metadataCache.controllerIdForClients(image),
          listenerName: context.connection.listenerName,
          servedBy: "broker",
          isAllowed: context.authorization.authorizeCluster,
        },
        request,
      );
      return respond(response);
    },
  });
}
