import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyClusterView } from "./cluster-view.testkit.js";
import { dashboardEventsRoute } from "./dashboard-events.js";
import { MetadataChangeFeed } from "./metadata-changes.js";

const view = emptyClusterView();

/** A feed that keeps `historyMax` changes, with changes 0, 1-2, 3 and 4-6 published. */
function feedOf(historyMax: number): MetadataChangeFeed {
  const feed = new MetadataChangeFeed({
    summarize: () => ({ type: "TopicRecord", summary: "" }),
    historyMax,
    recordsPerChangeMax: 5,
  });
  for (const [baseOffset, lastOffset] of [
    [0, 0],
    [1, 2],
    [3, 3],
    [4, 6],
  ] as const) {
    const records = Array.from({ length: lastOffset - baseOffset + 1 }, () => new Uint8Array(1));
    feed.publish({ kind: "batch", baseOffset, lastOffset, epoch: 1, records });
  }
  return feed;
}

/** The ids of the metadata events a stream sends on opening with `headers`. */
function openingIds(feed: MetadataChangeFeed, headers: Record<string, string>): string[] {
  const route = dashboardEventsRoute({
    clusterView: { clusterView: () => view },
    metadataChanges: feed,
  });
  const sent: string[] = [];
  const sink = { send: (text: string) => sent.push(text), end: () => undefined };
  const opening = route.open({ method: "GET", path: "/v1/events", headers, query: {} }, sink);
  assert.equal(opening.kind, "open");
  if (opening.kind === "open") opening.stream.close();
  return sent.flatMap((text) => /^id: (\d+)\nevent: metadata\n/.exec(text)?.[1] ?? []);
}

test("each metadata event carries the offset of its last record as its id", () => {
  assert.deepEqual(openingIds(feedOf(10), {}), ["0", "2", "3", "6"]);
});

test("a reconnect with Last-Event-ID is sent only the changes after it", () => {
  assert.deepEqual(openingIds(feedOf(10), { "last-event-id": "2" }), ["3", "6"]);
  assert.deepEqual(openingIds(feedOf(10), { "last-event-id": "6" }), []);
  assert.deepEqual(openingIds(feedOf(10), { "last-event-id": "not a number" }), [
    "0",
    "2",
    "3",
    "6",
  ]);
});

test("a Last-Event-ID older than the kept changes gets them all again", () => {
  // Only 3 and 4-6 are kept: what came after offset 1 cannot be told whole.
  assert.deepEqual(openingIds(feedOf(2), { "last-event-id": "1" }), ["3", "6"]);
  assert.deepEqual(openingIds(feedOf(2), { "last-event-id": "2" }), ["3", "6"]);
  assert.deepEqual(openingIds(feedOf(2), { "last-event-id": "3" }), ["6"]);
});
