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
import { httpRoutes, type ClusterView, type NodeHealth } from "../../src/http/index.js";
import type { Logger } from "../../src/ports/index.js";

const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silent,
};

const view: ClusterView = {
  clusterId: "abc",
  nodeId: brokerId(1),
  roles: ["broker", "controller"],
  controller: { leaderId: brokerId(1), leaderEpoch: leaderEpoch(2), voters: [brokerId(1)] },
  replicaManager: undefined,
  brokers: [],
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
          highWatermark: offset(5),
          logEndOffset: offset(5),
          followerLag: undefined,
        },
      ],
    },
  ],
};

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
