import { test } from "node:test";
import assert from "node:assert/strict";
import { nodeRoles, propertiesOf, type ClusterNode, type ClusterState } from "./cluster-up-plan.js";

test("one broker and one controller are one combined node; other sizes run roles apart", () => {
  assert.deepEqual(nodeRoles({ brokers: 1, controllers: 1 }), [
    { nodeId: 1, roles: ["broker", "controller"] },
  ]);
  assert.deepEqual(
    nodeRoles({ brokers: 2, controllers: 3 }).map((node) => `${node.nodeId}:${node.roles}`),
    ["1:controller", "2:controller", "3:controller", "4:broker", "5:broker"],
  );
});

function node(nodeId: number, ports: Partial<ClusterNode>): ClusterNode {
  return {
    nodeId,
    roles: ports.clientPort === undefined ? ["controller"] : ["broker"],
    clientPort: null,
    controllerPort: null,
    httpPort: 9000 + nodeId,
    configPath: `/c/node-${nodeId}/server.properties`,
    dataDir: `/c/node-${nodeId}/data`,
    logPath: `/c/node-${nodeId}/sluice.log`,
    pid: null,
    ...ports,
  };
}

test("a broker's properties name every controller as a voter and its own ports and dir", () => {
  const state: ClusterState = {
    clusterId: "MkU3OEVBNTcwNTJENDM2Qk",
    host: "127.0.0.1",
    nodes: [node(1, { controllerPort: 7001 }), node(2, { controllerPort: 7002 })].concat([
      node(3, { clientPort: 8003 }),
    ]),
  };
  const broker = state.nodes[2];
  assert.ok(broker !== undefined);
  const lines = propertiesOf(state, broker, ["log.segment.bytes=1048576"]).split("\n");
  for (const expected of [
    "process.roles=broker",
    "node.id=3",
    "listeners=PLAINTEXT://127.0.0.1:8003",
    "advertised.listeners=PLAINTEXT://127.0.0.1:8003",
    "controller.listener.names=CONTROLLER",
    "controller.quorum.voters=1@127.0.0.1:7001,2@127.0.0.1:7002",
    "sluice.http.listener=127.0.0.1:9003",
    "log.dirs=/c/node-3/data",
    "offsets.topic.replication.factor=1",
    "log.segment.bytes=1048576",
  ]) {
    assert.ok(lines.includes(expected), `${expected} in\n${lines.join("\n")}`);
  }
});
