// The public surface of Sluice's HTTP endpoint: the route table and the interfaces the node
// assembly implements to feed it (metrics renderer, health source, cluster view source).
export {
  JSON_CONTENT_TYPE,
  jsonResponse,
  type HttpRequest,
  type HttpResponse,
  type HttpRoute,
} from "./http-types.js";
export {
  PROMETHEUS_TEXT_CONTENT_TYPE,
  metricsRoute,
  type MetricsRenderer,
} from "./metrics-route.js";
export {
  assessHealth,
  healthRoute,
  type BrokerHealth,
  type BrokerState,
  type HealthSource,
  type HealthVerdict,
  type LogDirHealth,
  type NodeHealth,
  type ProcessRole,
  type QuorumHealth,
} from "./health.js";
export {
  clusterViewJson,
  clusterViewRoute,
  replicationHealthOf,
  type BrokerView,
  type ClusterView,
  type ClusterViewSource,
  type ControllerView,
  type EndpointView,
  type PartitionView,
  type ReplicaManagerView,
  type ReplicationHealth,
  type TopicView,
} from "./cluster-view.js";
export { DASHBOARD_HTML, HTML_CONTENT_TYPE, dashboardRoute } from "./dashboard.js";
export { httpRoutes, type HttpSources } from "./routes.js";
