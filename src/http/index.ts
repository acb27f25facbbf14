// The public surface of Sluice's HTTP endpoint: the route table and the interfaces the node
// assembly implements to feed it (metrics renderer, health source, cluster view source).
export {
  JSON_CONTENT_TYPE,
  jsonResponse,
  type HttpEventSink,
  type HttpEventStream,
  type HttpImmediateRoute,
  type HttpRequest,
  type HttpResponse,
  type HttpResponseRoute,
  type HttpRoute,
  type HttpStreamOpening,
  type HttpStreamRoute,
} from "./http-types.js";
export { sseFrame, sseJson, type ServerSentEvent } from "./sse.js";
export {
  MetadataChangeFeed,
  type CommittedChange,
  type MetadataChange,
  type MetadataChangeFeedOptions,
  type MetadataRecordSummarizer,
  type MetadataRecordSummary,
} from "./metadata-changes.js";
export {
  BROWSE_BYTES_MAX,
  BROWSE_RECORDS_MAX,
  BROWSE_SHOWN_BYTES_MAX,
  browseJson,
  parseBrowseQuery,
  type BrowseRequest,
  type BrowseResult,
  type BrowseStart,
  type BrowsedRecord,
  type MessageSource,
} from "./message-browser.js";
export { messageBrowserRoute, NO_MESSAGES } from "./message-browser.driver.js";
export {
  hexOf,
  renderBytes,
  textOf,
  type RenderedBytes,
  type ValueFormat,
} from "./value-rendering.js";
export { clusterHealthOf, type ClusterHealth, type ClusterHealthInput } from "./cluster-health.js";
export { groupsJson, type GroupOffsetView, type GroupView } from "./group-view.js";
export { dashboardEventsRoute, type DashboardEventSources } from "./dashboard-events.js";
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
  type LogDirView,
  type QuorumReplicaView,
  type PartitionView,
  type ReplicaManagerView,
  type ReplicationHealth,
  type TopicView,
} from "./cluster-view.js";
export { DASHBOARD_HTML, HTML_CONTENT_TYPE, dashboardRoute } from "./dashboard.js";
export { httpRoutes, type HttpSources } from "./routes.js";
