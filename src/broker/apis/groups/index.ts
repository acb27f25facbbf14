// The group API handlers (thin: the logic lives in src/coordinator).
export { registerGroupApis, type GroupApiDependencies } from "./register-group-apis.js";
export { FIND_COORDINATOR_VERSIONS } from "./find-coordinator.driver.js";
export {
  HEARTBEAT_VERSIONS,
  JOIN_GROUP_VERSIONS,
  LEAVE_GROUP_VERSIONS,
  SYNC_GROUP_VERSIONS,
} from "./membership.driver.js";
export { OFFSET_COMMIT_VERSIONS, OFFSET_FETCH_VERSIONS } from "./offsets.driver.js";
export {
  DELETE_GROUPS_VERSIONS,
  DESCRIBE_GROUPS_VERSIONS,
  LIST_GROUPS_VERSIONS,
} from "./group-admin.driver.js";
export { OFFSET_DELETE_VERSIONS } from "./offset-delete.driver.js";
