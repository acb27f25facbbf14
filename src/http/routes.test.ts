import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId, leaderEpoch } from "../common/index.js";
import { DASHBOARD_HTML } from "./dashboard.js";
import { httpRoutes } from "./routes.js";
import type { HttpRoute } from "./http-types.js";

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
    clusterView: () => ({
      clusterId: "c",
      nodeId: brokerId(1),
      roles: ["controller"],
      controller: { leaderId: brokerId(1), leaderEpoch: leaderEpoch(1), voters: [brokerId(1)] },
      replicaManager: undefined,
      brokers: [],
      topics: [],
    }),
  },
});

function routeFor(path: string): HttpRoute {
  const route = routes.find((candidate) => candidate.path === path);
  assert.ok(route !== undefined, `no route for ${path}`);
  return route;
}

const get = (path: string) => routeFor(path).handle({ method: "GET", path, headers: {} });

test("the table has one GET route for each of /, /metrics, /health and /v1/cluster", () => {
  const entries = routes.map((route) => `${route.method} ${route.path}`).sort();
  assert.deepEqual(entries, ["GET /", "GET /health", "GET /metrics", "GET /v1/cluster"]);
});

test("GET /metrics answers the renderer's text as exposition format 0.0.4", () => {
  const response = get("/metrics");
  assert.equal(response.status, 200);
  assert.equal(response.contentType, "text/plain; version=0.0.4; charset=utf-8");
  assert.equal(response.body, "# HELP up Up.\n# TYPE up gauge\nup 1\n");
});

test("GET /metrics renders at each scrape, not once", () => {
  let scrapes = 0;
  const route = httpRoutes({
    metrics: { render: () => `scrape ${++scrapes}\n` },
    health: { health: () => assert.fail("not read") },
    clusterView: { clusterView: () => assert.fail("not read") },
  }).find((candidate) => candidate.path === "/metrics");
  assert.ok(route !== undefined);
  route.handle({ method: "GET", path: "/metrics", headers: {} });
  assert.equal(route.handle({ method: "GET", path: "/metrics", headers: {} }).body, "scrape 2\n");
});

test("GET / is a self-contained page that loads /v1/cluster and writes text only", () => {
  const response = get("/");
  assert.equal(response.status, 200);
  assert.equal(response.contentType, "text/html; charset=utf-8");
  assert.equal(response.body, DASHBOARD_HTML);
  assert.match(response.body, /^<!doctype html>/);
  assert.match(response.body, /fetch\("\/v1\/cluster"/);
  // No external assets: every src or href is a path of this server.
  const references = [...response.body.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
  assert.deepEqual(references, ["/metrics", "/health", "/v1/cluster"]);
  assert.ok(!response.body.includes("innerHTML"), "names are written as text, never as markup");
  assert.match(response.headers?.["content-security-policy"] ?? "", /default-src 'none'/);
});

test("the dashboard script is valid JavaScript", () => {
  const script = /<script>([\s\S]*)<\/script>/.exec(DASHBOARD_HTML)?.[1];
  assert.ok(script !== undefined);
  // Compiling (not running) the script catches a syntax error the browser would hit.
  assert.doesNotThrow(() => new Function(script));
});

/** A stand-in for the few DOM calls the dashboard script makes. */
class FakeElement {
  textContent = "";
  className = "";
  hidden = false;
  children: FakeElement[] = [];
  appendChild(child: FakeElement): void {
    this.children.push(child);
  }
  replaceChildren(...children: FakeElement[]): void {
    this.children = children;
  }
}

/** The dashboard script's `draw`, run over fake DOM elements (created on first lookup). */
function dashboardDraw(): {
  draw: (view: unknown) => void;
  elements: Map<string, FakeElement>;
} {
  const script = /<script>([\s\S]*)<\/script>/.exec(DASHBOARD_HTML)?.[1];
  assert.ok(script !== undefined);
  const elements = new Map<string, FakeElement>();
  const document = {
    getElementById: (id: string) => elements.get(id) ?? elements.set(id, new FakeElement()).get(id),
    createElement: () => new FakeElement(),
  };
  const neverAnswers = () => new Promise(() => undefined);
  const draw = new Function("document", "fetch", "setInterval", `${script}; return draw;`)(
    document,
    neverAnswers,
    () => undefined,
  ) as (view: unknown) => void;
  return { draw, elements };
}

const drawnPartition = { partition: 0, leaderEpoch: 1, highWatermark: 3, logEndOffset: 5 };

/** A view as /v1/cluster writes it: a partition without a leader, and this broker's counts. */
const drawnView = {
  clusterId: "c",
  nodeId: 1,
  roles: ["broker"],
  controller: { leaderId: 1, leaderEpoch: 1, voters: [1] },
  replication: { offlinePartitions: 1, underReplicatedPartitions: 2, underMinIsrPartitions: 0 },
  replicaManager: {
    leaderCount: 1,
    partitionCount: 2,
    underReplicatedPartitions: 0,
    underMinIsrPartitionCount: 0,
    atMinIsrPartitionCount: 1,
    offlineReplicaCount: 0,
    reassigningPartitions: 0,
    isrShrinks: 4,
    isrExpands: 3,
    failedIsrUpdates: 2,
    maxLag: 9,
  },
  brokers: [],
  topics: [
    {
      name: "orders",
      minInsyncReplicas: 2,
      partitions: [
        { ...drawnPartition, leader: 1, replicas: [1, 2], isr: [1, 2] },
        { ...drawnPartition, leader: null, replicas: [1, 2], isr: [2], followerLag: 4 },
      ],
    },
  ],
};

test("the dashboard draws the replication health of the cluster and of this broker", () => {
  const { draw, elements } = dashboardDraw();
  draw(drawnView);
  const [health] = elements.get("replication")?.children ?? [];
  assert.deepEqual(
    health?.children.map((cell) => cell.textContent),
    ["1", "2", "0"],
  );
  assert.equal(health?.className, "bad");
  const rows = elements.get("partitions")?.children ?? [];
  assert.deepEqual(
    rows.map((row) => [row.className, row.children.at(-1)?.textContent]),
    [
      ["", "-"],
      ["bad", "4"],
    ],
  );
  const [local] = elements.get("replica-manager")?.children ?? [];
  assert.deepEqual(
    local?.children.map((cell) => cell.textContent),
    ["1", "2", "0", "0", "1", "0", "0", "4", "3", "2", "9"],
  );
  assert.equal(local?.className, "");
  assert.equal(elements.get("replica-manager-section")?.hidden, false);
  // A node without the broker role hosts no replicas: the section is hidden.
  draw({ ...drawnView, replicaManager: null });
  assert.equal(elements.get("replica-manager-section")?.hidden, true);
});
