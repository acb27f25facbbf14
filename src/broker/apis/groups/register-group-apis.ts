/**
 * Registers the group APIs of the classic protocol on a client router, over one
 * GroupCoordinator: FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit,
 * OffsetFetch, DescribeGroups, ListGroups, DeleteGroups and OffsetDelete; and those of the
 * consumer group protocol (KIP-848), ConsumerGroupHeartbeat and ConsumerGroupDescribe.
 */
import type { GroupCoordinator, TransactionCoordinator } from "../../../coordinator/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import type { ApiKey } from "../../../protocol/index.js";
import type { ApiHandler } from "../../router/handler.js";
import type { Forwarder } from "../forwarder.js";
import {
  consumerGroupDescribeHandler,
  consumerGroupHeartbeatHandler,
} from "./consumer-group.driver.js";
import { findCoordinatorHandler } from "./find-coordinator.driver.js";
import {
  deleteGroupsHandler,
  describeGroupsHandler,
  listGroupsHandler,
} from "./group-admin.driver.js";
import {
  heartbeatHandler,
  joinGroupHandler,
  leaveGroupHandler,
  syncGroupHandler,
} from "./membership.driver.js";
import { offsetDeleteHandler } from "./offset-delete.driver.js";
import { offsetCommitHandler, offsetFetchHandler } from "./offsets.driver.js";

export interface GroupApiDependencies {
  readonly coordinator: GroupCoordinator;
  /** The transaction coordinator that FindCoordinator locates for key type 1, if any. */
  readonly transactions?: TransactionCoordinator;
  readonly metadataCache: MetadataCache;
  readonly forwarder: Forwarder;
  /** Wall-clock time, for commit timestamps. */
  readonly clock: { nowMs(): number };
  /** The CreateTopics timeout for `__consumer_offsets` (Kafka's `request.timeout.ms`). */
  readonly requestTimeoutMs: number;
}

/** Registers every group API (call before registerApiVersions, which lists what is registered). */
export function registerGroupApis(
  router: { register<K extends ApiKey>(handler: ApiHandler<K>): void },
  dependencies: GroupApiDependencies,
): void {
  const { coordinator } = dependencies;
  router.register(offsetCommitHandler(coordinator, dependencies.clock, dependencies.metadataCache));
  router.register(offsetFetchHandler(coordinator));
  router.register(findCoordinatorHandler(dependencies));
  router.register(joinGroupHandler(coordinator));
  router.register(heartbeatHandler(coordinator));
  router.register(leaveGroupHandler(coordinator));
  router.register(syncGroupHandler(coordinator));
  router.register(describeGroupsHandler(coordinator));
  router.register(listGroupsHandler(coordinator));
  router.register(deleteGroupsHandler(coordinator));
  router.register(offsetDeleteHandler(coordinator, dependencies.metadataCache));
  router.register(consumerGroupHeartbeatHandler(coordinator, dependencies.metadataCache));
  router.register(consumerGroupDescribeHandler(coordinator, dependencies.metadataCache));
}
