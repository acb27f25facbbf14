/**
 * Registers the group APIs of the classic protocol on a client router, over one
 * GroupCoordinator: FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit,
 * OffsetFetch, DescribeGroups, ListGroups and DeleteGroups.
 */
import type { GroupCoordinator } from "../../../coordinator/index.js";
import type { MetadataCache } from "../../metadata-cache/index.js";
import type { ApiHandler } from "../../router/handler.js";
import type { Forwarder } from "../forwarder.js";
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
import { offsetCommitHandler, offsetFetchHandler } from "./offsets.driver.js";

/** What the group APIs work with. */
export interface GroupApiDependencies {
  readonly coordinator: GroupCoordinator;
  readonly metadataCache: MetadataCache;
  readonly forwarder: Forwarder;
  /** Wall-clock time, for commit timestamps. */
  readonly clock: { nowMs(): number };
  /** The CreateTopics timeout for `__consumer_offsets` (Kafka's `request.timeout.ms`). */
  readonly requestTimeoutMs: number;
}

/** Registers every group API (call before registerApiVersions, which lists what is registered). */
export function registerGroupApis(
  router: { register(apiKey: number, handler: ApiHandler): void },
  dependencies: GroupApiDependencies,
): void {
  const { coordinator } = dependencies;
  router.register(8, offsetCommitHandler(coordinator, dependencies.clock));
  router.register(9, offsetFetchHandler(coordinator));
  router.register(10, findCoordinatorHandler(dependencies));
  router.register(11, joinGroupHandler(coordinator));
  router.register(12, heartbeatHandler(coordinator));
  router.register(13, leaveGroupHandler(coordinator));
  router.register(14, syncGroupHandler(coordinator));
  router.register(15, describeGroupsHandler(coordinator));
  router.register(16, listGroupsHandler(coordinator));
  router.register(42, deleteGroupsHandler(coordinator));
}
