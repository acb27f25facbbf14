import { test } from "node:test";
import assert from "node:assert/strict";
import { loseAllUnsynced, MemoryMetricsSink, settle, SimWorld } from "../../sim/index.js";
import { loadNodeConfig } from "./config/load-config.js";
import { prepareStorage } from "./node-storage.js";
import type { NodePorts } from "./node-types.js";

const settings = [
  "process.roles=broker,controller",
  "node.id=1",
  "listeners=PLAINTEXT://n1:9092,CONTROLLER://n1:9093",
  "controller.listener.names=CONTROLLER",
  "controller.quorum.voters=1@n1:9093",
  "log.dirs=/var/lib/sluice/logs",
  "metadata.log.dir=/var/lib/sluice/metadata",
].join("\n");

test("a formatted node keeps its dirs through a power cut right after the format", async () => {
  const base = { kind: "file", path: "node.properties", text: settings } as const;
  const loaded = loadNodeConfig({ base });
  assert.equal(loaded.kind, "valid");
  if (loaded.kind !== "valid") return;
  const world = new SimWorld({ seed: 7 });
  const machine = world.node("n1");
  const disk = world.disk("n1");
  const logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
  const ports: NodePorts = {
    ...{ fs: disk, network: world.network.forNode("n1"), clock: machine.clock },
    ...{ timers: machine.timers, random: machine.random, logger, metrics: new MemoryMetricsSink() },
  };
  const policy = { clusterIdToFormat: "c2x1aWNlLXRlc3QtMDAwMA", formatsOnFirstStart: false };
  const first = await settle(world.scheduler, prepareStorage(ports, loaded.config, policy));
  assert.equal(first.kind, "identified");
  disk.crashOptions = loseAllUnsynced;
  machine.crash();
  machine.restart();
  const again = await settle(world.scheduler, prepareStorage(ports, loaded.config, policy));
  assert.equal(again.kind, "identified");
  if (first.kind !== "identified" || again.kind !== "identified") return;
  // The same dirs, not a second format under new directory ids.
  assert.equal(again.identity.wasFormatted, false);
  assert.equal(again.identity.metadataDirectoryId, first.identity.metadataDirectoryId);
});
