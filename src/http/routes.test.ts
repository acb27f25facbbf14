import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId, leaderEpoch } from "../common/index.js";
import { emptyClusterView } from "./cluster-view.testkit.js";
import { DASHBOARD_HTML } from "./dashboard.js";
import { httpRoutes } from "./routes.js";
import type { HttpResponse, HttpRoute } from "./http-types.js";
import { MetadataChangeFeed } from "./metadata-changes.js";

const changes = new MetadataChangeFeed({
  summarize: () => ({ type: "NoOpRecord", summary: "" }),
  historyMax: 1,
  recordsPerChangeMax: 1,
});

const routes = httpRoutes({
  metrics: { render: () => "# HELP up Up.\n# TYPE up gauge\nup 1\n" },
  health: {
    health: () => ({
      nodeId: brokerId(1),
      roles: ["controller"],
      broker: undefined,
      quorum: { leaderId: brokerId(1), leaderEpoch: leaderEpoch(1) },
      logDirs: [],
    }),
  },
  clusterView: {
    clusterView: () => emptyClusterView({ clusterId: "c", roles: ["controller"] }),
  },
  metadataChanges: changes,
  messages: undefined,
});

function routeFor(path: string): HttpRoute {
  const route = routes.find((candidate) => candidate.path === path);
  assert.ok(route !== undefined, `no route for ${path}`);
  return route;
}

/** The answer of a response route that answers at once, as the ones tested here do. */
function get(path: string): HttpResponse {
  const route = routeFor(path);
  assert.ok(route.kind !== "stream", `${path} is a response route`);
  const answer = route.handle({ method: "GET", path, headers: {}, query: {} });
  assert.ok(!(answer instanceof Promise), `${path} answers at once`);
  return answer;
}

test("the table has one GET route for each path, /v1/events a stream", () => {
  const entries = routes.map((route) => `${route.method} ${route.path} ${route.kind ?? ""}`);
  assert.deepEqual(entries.sort(), [
    "GET / ",
    "GET /health ",
    "GET /metrics ",
    "GET /v1/cluster ",
    "GET /v1/events stream",
    "GET /v1/messages ",
  ]);
});

test("a node without the broker role answers the message browser 404, saying why", async () => {
  const route = routeFor("/v1/messages");
  assert.ok(route.kind !== "stream");
  const query = { topic: "t" };
  const answer = await route.handle({ method: "GET", path: "/v1/messages", headers: {}, query });
  assert.equal(answer.status, 404);
  assert.match(answer.body, /no broker role/);
});

test("GET /metrics answers the renderer's text as exposition format 0.0.4", () => {
  const response = get("/metrics");
  assert.equal(response.status, 200);
  assert.equal(response.contentType, "text/plain; version=0.0.4; charset=utf-8");
  assert.equal(response.body, "# HELP up Up.\n# TYPE up gauge\nup 1\n");
});

test("GET /metrics renders at each scrape, not once", async () => {
  let scrapes = 0;
  const route = httpRoutes({
    metrics: { render: () => `scrape ${++scrapes}\n` },
    health: { health: () => assert.fail("not read") },
    clusterView: { clusterView: () => assert.fail("not read") },
    metadataChanges: changes,
    messages: undefined,
  }).find((candidate) => candidate.path === "/metrics");
  assert.ok(route !== undefined && route.kind !== "stream");
  const request = { method: "GET", path: "/metrics", headers: {}, query: {} };
  await route.handle(request);
  assert.equal((await route.handle(request)).body, "scrape 2\n");
});

test("GET / is a self-contained page that follows /v1/events and writes text only", () => {
  const response = get("/");
  assert.equal(response.status, 200);
  assert.equal(response.contentType, "text/html; charset=utf-8");
  assert.equal(response.body, DASHBOARD_HTML);
  assert.match(response.body, /^<!doctype html>/);
  assert.match(response.body, /new EventSource\("\/v1\/events"\)/);
  assert.match(response.body, /fetch\("\/v1\/messages\?"/);
  // No external assets: every src or href is a path of this server.
  const references = [...response.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(references, ["/metrics", "/health", "/v1/cluster"]);
  assert.ok(!response.body.includes("innerHTML"), "names are written as text, never as markup");
  assert.match(response.headers?.["content-security-policy"] ?? "", /default-src 'none'/);
});
