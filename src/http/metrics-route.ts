/** The `GET /metrics` route: the node's metrics for Prometheus to scrape. */
import type { HttpImmediateRoute } from "./http-types.js";

export const PROMETHEUS_TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Whatever holds the node's metrics and writes them in the text exposition format 0.0.4. */
export interface MetricsRenderer {
  render(): string;
}

/** `GET /metrics`: the text `renderer` writes, at the moment of the scrape. */
export function metricsRoute(renderer: MetricsRenderer): HttpImmediateRoute {
  return {
    method: "GET",
    path: "/metrics",
    handle: () => ({
      status: 200,
      contentType: PROMETHEUS_TEXT_CONTENT_TYPE,
      body: renderer.render(),
    }),
  };
}
