/**
 * The `GET /v1/events` route: the dashboard's live updates as Server-Sent Events. On opening,
 * a `cluster` event with the cluster view (the JSON of `GET /v1/cluster`) and a `metadata`
 * event for each recent committed metadata change; then a `metadata` event as each change
 * commits, and at every tick of the server a new `cluster` event if the view changed (so a
 * fenced broker, a new topic or a moved high watermark shows within a tick).
 *
 * Each `metadata` event's id is the metadata log offset of its last record, so a browser that
 * reconnects (EventSource sends the last id it saw as Last-Event-ID) is sent only the changes
 * after it, when the kept changes reach back that far; otherwise every kept change again.
 */
import { clusterViewJson, type ClusterViewSource } from "./cluster-view.js";
import type { HttpStreamRoute } from "./http-types.js";
import type { MetadataChangeFeed } from "./metadata-changes.js";
import type { MetadataChange } from "./metadata-changes.js";
import { sseFrame } from "./sse.js";

export interface DashboardEventSources {
  readonly clusterView: ClusterViewSource;
  readonly metadataChanges: MetadataChangeFeed;
}

export function dashboardEventsRoute(sources: DashboardEventSources): HttpStreamRoute {
  return {
    kind: "stream",
    method: "GET",
    path: "/v1/events",
    open: (request, sink) => {
      let lastView = "";
      const sendViewIfChanged = (): void => {
        const view = JSON.stringify(clusterViewJson(sources.clusterView.clusterView()));
        if (view === lastView) return;
        lastView = view;
        sink.send(sseFrame({ event: "cluster", data: view }));
      };
      sendViewIfChanged();
      const seen = lastEventIdOf(request.headers["last-event-id"]);
      for (const change of changesAfter(sources.metadataChanges.recent(), seen)) {
        sink.send(metadataEvent(change));
      }
      const unsubscribe = sources.metadataChanges.subscribe((change) =>
        sink.send(metadataEvent(change)),
      );
      return { kind: "open", stream: { tick: sendViewIfChanged, close: unsubscribe } };
    },
  };
}

function metadataEvent(change: MetadataChange): string {
  return sseFrame({
    event: "metadata",
    data: JSON.stringify(change),
    id: String(change.lastOffset),
  });
}

/** The offset a reconnecting browser saw last, or undefined for a first connection. */
function lastEventIdOf(header: string | undefined): number | undefined {
  if (header === undefined || !/^\d{1,15}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** The kept changes after offset `seen`; all of them when some after it are no longer kept. */
function changesAfter(recent: readonly MetadataChange[], seen: number | undefined) {
  const first = recent[0];
  if (seen === undefined || first === undefined || first.baseOffset > seen + 1) return recent;
  return recent.filter((change) => change.lastOffset > seen);
}
