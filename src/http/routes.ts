/** The whole route table of Sluice's HTTP endpoint, for the node assembly to hand the server. */
import { clusterViewRoute, type ClusterViewSource } from "./cluster-view.js";
import { dashboardEventsRoute } from "./dashboard-events.js";
import { dashboardRoute } from "./dashboard.js";
import { healthRoute, type HealthSource } from "./health.js";
import type { HttpRoute } from "./http-types.js";
import { messageBrowserRoute, NO_MESSAGES } from "./message-browser.driver.js";
import type { MessageSource } from "./message-browser.js";
import type { MetadataChangeFeed } from "./metadata-changes.js";
import { metricsRoute, type MetricsRenderer } from "./metrics-route.js";

/** What the routes read; the node assembly implements each from its live state. */
export interface HttpSources {
  readonly metrics: MetricsRenderer;
  readonly health: HealthSource;
  readonly clusterView: ClusterViewSource;
  readonly metadataChanges: MetadataChangeFeed;
  /** The broker's records; undefined on a node without the broker role. */
  readonly messages: MessageSource | undefined;
}

/**
 * `GET /`, `GET /metrics`, `GET /health`, `GET /v1/cluster`, `GET /v1/events` and
 * `GET /v1/messages` over `sources`.
 */
export function httpRoutes(sources: HttpSources): readonly HttpRoute[] {
  return [
    dashboardRoute(),
    metricsRoute(sources.metrics),
    healthRoute(sources.health),
    clusterViewRoute(sources.clusterView),
    dashboardEventsRoute(sources),
    messageBrowserRoute(sources.messages ?? NO_MESSAGES),
  ];
}
