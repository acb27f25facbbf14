// The controller listener's API handlers: one per controller API, each turning a decoded
// request into an operation of the quorum controller's queue, with Kafka's error response.
export { readApi, writeApi } from "./controller-api.js";
export type {
  ControllerApi,
  ControllerApiHost,
  ControllerApiRequest,
  ControllerApiResponse,
  QueuedApiSpec,
  ReadApiSpec,
  WriteApiSpec,
} from "./controller-api.js";
export {
  brokerHeartbeatApi,
  brokerRegistrationApi,
  controllerRegistrationApi,
  describeClusterApi,
  unregisterBrokerApi,
} from "./cluster-apis.js";
export { createPartitionsApi, createTopicsApi, deleteTopicsApi } from "./topic-apis.js";
export { alterConfigsApi, describeConfigsApi, incrementalAlterConfigsApi } from "./config-apis.js";
export {
  allocateProducerIdsApi,
  alterPartitionApi,
  alterPartitionReassignmentsApi,
  electLeadersApi,
  listPartitionReassignmentsApi,
} from "./partition-apis.js";
export { updateFeaturesApi } from "./feature-apis.js";
export { alterClientQuotasApi } from "./quota-apis.js";
export { alterUserScramCredentialsApi } from "./scram-apis.js";
export { controllerApiHandlers, controllerApis } from "./controller-apis.js";
export type {
  BoundControllerApi,
  ControllerRouterContext,
  ControllerRouterOutcome,
} from "./controller-apis.js";
export { fitToVersion, requestForVersion, responseForVersion } from "./version-fit.js";
export { createAclsApi, deleteAclsApi } from "./acl-apis.js";
