/**
 * The HTTP endpoint assembled as the node will assemble it: the Prometheus registry as the
 * metrics renderer, the src/http route table, and the node:http adapter on a loopback port.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { HttpServer } from "../../src/adapters/http-server.js";
import { PrometheusRegistry } from "../../src/adapters/metrics/prometheus-registry.js";
import {
  brokerId,
  leaderEpoch,
  offset,
  partitionIndex,
  type Uuid,
} from "../../src/common/index.js";
import {
  httpRoutes,
  MetadataChangeFeed,
  type ClusterView,
  type MessageSource,
  type NodeHealth,
} from "../../src/http/index.js";
import type { Logger } from "../../src/ports/index.js";
import { emptyClusterView } from "../../src/http/cluster-view.testkit.js";

const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silent,
};

const view: ClusterView = emptyClusterView({
  topics: [
    {
      name: "t",
      topicId: "00000000000000000000000000000001" as Uuid,
      minInsyncReplicas: 1,
      partitions: [
        {
          partition: partitionIndex(0),
          leader: brokerId(1),
          leaderEpoch: leaderEpoch(0),
          replicas: [brokerId(1)],
          isr: [brokerId(1)],
          elr: [],
          lastKnownElr: [],
          highWatermark: offset(5),
          logEndOffset: offset(5),
          followerLag: undefined,
        },
      ],
    },
  ],
});

const changes = new MetadataChangeFeed({
  summarize: (value) => ({ type: "TestRecord", summary: `${value.length} bytes` }),
  historyMax: 10,
  recordsPerChangeMax: 5,
});

test("the endpoint serves metrics, health, cluster view and dashboard", async () => {
  const registry = new PrometheusRegistry();
  const requests = registry.counter("sluice_requests_total", "Requests.", { api: "Produce" });
  let health: NodeHealth = {
    nodeId: brokerId(1),
    roles: ["broker", "controller"],
    broker: { state: "recovery", isRegistered: false, isFenced: true },
    quorum: { leaderId: undefined, leaderEpoch: leaderEpoch(0) },
    logDirs: [{ path: "data", isOffline: false }],
  };
  const routes = httpRoutes({
    metrics: registry,
    health: { health: () => health },
    clusterView: { clusterView: () => view },
    metadataChanges: changes,
    messages: undefined,
  });
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, routes, logger: silent });
  const url = (path: string): string => `http://127.0.0.1:${server.address.port}${path}`;
  try {
    requests.inc(3);
    const metrics = await fetch(url("/metrics"));
    assert.equal(metrics.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    assert.match(await metrics.text(), /^sluice_requests_total\{api="Produce"\} 3$/m);

    const starting = await fetch(url("/health"));
    assert.equal(starting.status, 503);
    assert.equal(((await starting.json()) as { status: string }).status, "unavailable");
    health = {
      ...health,
      broker: { state: "running", isRegistered: true, isFenced: false },
      quorum: { leaderId: brokerId(1), leaderEpoch: leaderEpoch(2) },
    };
    const serving = await fetch(url("/health"));
    assert.equal(serving.status, 200);
    assert.equal(((await serving.json()) as { status: string }).status, "ok");

    const cluster = (await (await fetch(url("/v1/cluster"))).json()) as {
      topics: { partitions: { highWatermark: number }[] }[];
    };
    assert.equal(cluster.topics[0]?.partitions[0]?.highWatermark, 5);

    const page = await fetch(url("/"));
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await page.text(), /<title>Sluice<\/title>/);
  } finally {
    await server.close();
  }
});

/** Reads an event stream's text until `isDone` holds of it, or fails at the deadline. */
async function readStreamUntil(
  body: ReadableStream<Uint8Array>,
  isDone: (text: string) => boolean,
): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = AbortSignal.timeout(20_000);
  try {
    while (!isDone(text)) {
      assert.ok(!deadline.aborted, `the stream never got there; it has: ${text}`);
      const { value, done } = await reader.read();
      assert.ok(!done, `the stream ended; it had: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  } finally {
    reader.releaseLock();
  }
}

test("GET /v1/events streams the cluster view then each metadata change", async () => {
  const feed = new MetadataChangeFeed({
    summarize: (value) => ({ type: "TopicRecord", summary: `topic of ${value.length} bytes` }),
    historyMax: 10,
    recordsPerChangeMax: 5,
  });
  feed.publish({
    kind: "batch",
    baseOffset: 0,
    lastOffset: 0,
    epoch: 1,
    records: [new Uint8Array(3)],
  });
  const routes = httpRoutes({
    metrics: new PrometheusRegistry(),
    health: { health: () => assert.fail("not read") },
    clusterView: { clusterView: () => view },
    metadataChanges: feed,
    messages: undefined,
  });
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, routes, logger: silent });
  const controller = new AbortController();
  try {
    const response = await fetch(`http://127.0.0.1:${server.address.port}/v1/events`, {
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.ok(response.body !== null);
    const opening = await readStreamUntil(response.body, (text) =>
      text.includes("event: metadata"),
    );
    assert.match(opening, /^event: cluster\ndata: \{"clusterId":"abc"/);
    assert.match(opening, /event: metadata\ndata: \{"kind":"batch","baseOffset":0/);
    feed.publish({
      kind: "batch",
      baseOffset: 1,
      lastOffset: 2,
      epoch: 1,
      records: [new Uint8Array(7), new Uint8Array(1)],
    });
    const next = await readStreamUntil(response.body, (text) => text.includes("7 bytes"));
    assert.match(next, /"baseOffset":1,"lastOffset":2,"epoch":1,"recordCount":2/);
  } finally {
    controller.abort();
    await server.close();
  }
});

test("GET /v1/messages reads the query, asks the source and renders values", async () => {
  const asked: unknown[] = [];
  const source: MessageSource = {
    browse: async (request) => {
      asked.push(request);
      return {
        kind: "records",
        startOffset: 4,
        logStartOffset: 0,
        highWatermark: 6,
        records: [
          {
            offset: 4,
            timestamp: 1000,
            key: new TextEncoder().encode("k"),
            value: new TextEncoder().encode('{"a":1}'),
            headers: [{ key: "h", value: new Uint8Array([0xff]) }],
          },
        ],
      };
    },
  };
  const routes = httpRoutes({
    metrics: new PrometheusRegistry(),
    health: { health: () => assert.fail("not read") },
    clusterView: { clusterView: () => view },
    metadataChanges: changes,
    messages: source,
  });
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, routes, logger: silent });
  const url = (query: string): string =>
    `http://127.0.0.1:${server.address.port}/v1/messages?${query}`;
  try {
    const bad = await fetch(url("topic=t&offset=1&timestamp=2"));
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /not both/);
    const answer = await fetch(url("topic=t%20x&partition=3&timestamp=900&limit=5&format=json"));
    assert.equal(answer.status, 200);
    assert.deepEqual(asked, [
      {
        topic: "t x",
        partition: 3,
        start: { kind: "timestamp", timestamp: 900 },
        maxRecords: 5,
        maxBytes: 1024 * 1024,
      },
    ]);
    const body = (await answer.json()) as {
      nextOffset: number;
      records: {
        key: { text: string };
        value: { format: string; text: string };
        headers: unknown;
      }[];
    };
    assert.equal(body.nextOffset, 5);
    assert.equal(body.records[0]?.key.text, "k");
    assert.deepEqual(body.records[0]?.value, {
      format: "json",
      text: '{\n  "a": 1\n}',
      sizeBytes: 7,
      isTruncated: false,
    });
    assert.deepEqual(body.records[0]?.headers, [
      { key: "h", value: { format: "hex", text: "ff", sizeBytes: 1, isTruncated: false } },
    ]);
  } finally {
    await server.close();
  }
});
