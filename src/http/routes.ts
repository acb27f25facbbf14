/** The whole route table of Sluice's HTTP endpoint, for the node assembly to hand the server. */
import { clusterViewRoute, type ClusterViewSource } from "./cluster-view.js";
import { dashboardRoute } from "./dashboard.js";
import { healthRoute, type HealthSource } from "./health.js";
import type { HttpRoute } from "./http-types.js";
import { metricsRoute, type MetricsRenderer } from "./metrics-route.js";

/** What the routes read; the node assembly implements each from its live state. */
export interface HttpSources {
  readonly metrics: MetricsRenderer;
  readonly health: HealthSource;
  readonly clusterView: ClusterViewSource;
}

/** `GET /`, `GET /metrics`, `GET /health` and `GET /v1/cluster` over `sources`. */
export function httpRoutes(sources: HttpSources): readonly HttpRoute[] {
  return [
    dashboardRoute(),
    metricsRoute(sources.metrics),
    healthRoute(sources.health),
    clusterViewRoute(sources.clusterView),
  ];
}
