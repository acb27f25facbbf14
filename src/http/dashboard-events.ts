/**
 * The `GET /v1/events` route: the dashboard's live updates as Server-Sent Events. On opening,
 * a `cluster` event with the cluster view (the JSON of `GET /v1/cluster`) and a `metadata`
 * event for each recent committed metadata change; then a `metadata` event as each change
 * commits, and at every tick of the server a new `cluster` event if the view changed (so a
 * fenced broker, a new topic or a moved high watermark shows within a tick).
 */
import { clusterViewJson, type ClusterViewSource } from "./cluster-view.js";
import type { HttpStreamRoute } from "./http-types.js";
import type { MetadataChangeFeed } from "./metadata-changes.js";
import { sseFrame, sseJson } from "./sse.js";

export interface DashboardEventSources {
  readonly clusterView: ClusterViewSource;
  readonly metadataChanges: MetadataChangeFeed;
}

export function dashboardEventsRoute(sources: DashboardEventSources): HttpStreamRoute {
  return {
    kind: "stream",
    method: "GET",
    path: "/v1/events",
    open: (_request, sink) => {
      let lastView = "";
      const sendViewIfChanged = (): void => {
        const view = JSON.stringify(clusterViewJson(sources.clusterView.clusterView()));
        if (view === lastView) return;
        lastView = view;
        sink.send(sseFrame({ event: "cluster", data: view }));
      };
      sendViewIfChanged();
      for (const change of sources.metadataChanges.recent()) sink.send(sseJson("metadata", change));
      const unsubscribe = sources.metadataChanges.subscribe((change) =>
        sink.send(sseJson("metadata", change)),
      );
      return { kind: "open", stream: { tick: sendViewIfChanged, close: unsubscribe } };
    },
  };
}
