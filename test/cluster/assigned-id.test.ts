/**
 * A broker started without node.id, as real processes on loopback: the controller assigns it an
 * id at or above 1000, the broker keeps it in meta.properties, and after a restart on another
 * port it registers under the same id with the new endpoint (after RocketMQ's controller mode).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeCluster, metadata } from "../../src/protocol/index.js";
import { freePort } from "../clients/sluice-process.js";
import { isDeepStrictEqual } from "node:util";
import { brokerSettings, startController } from "./separate-roles.js";
import {
  ClusterNode,
  isAddressInUse,
  killAll,
  pollUntil,
  request,
  sluice,
  temporaryDir,
} from "./cluster-process.js";

after(killAll);

/** The properties of `dir`'s meta.properties file. */
function metaProperties(dir: string): Map<string, string> {
  const text = readFileSync(join(dir, "meta.properties"), "utf8");
  const entries = text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line): [string, string] => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1)];
    });
  return new Map(entries);
}

/** Writes the broker's config (no node.id) for a client listener on `port`. */
async function configureBroker(broker: ClusterNode, voters: string, port: number): Promise<void> {
  broker.writeConfig({
    ...(await brokerSettings(voters, port)),
    // A short session lets the restarted broker's new incarnation register without a long wait
    // if the controller still holds the old one's session.
    "broker.session.timeout.ms": "3000",
    "broker.heartbeat.interval.ms": "500",
  });
}

/** Starts the broker on a new free client port, retrying if the port was taken meanwhile. */
async function startBroker(broker: ClusterNode, voters: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    await configureBroker(broker, voters, port);
    try {
      await broker.start();
      return port;
    } catch (error) {
      if (!isAddressInUse(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * Waits until the broker at `port` lists exactly `expected` in Metadata and in DescribeCluster:
 * the broker serves once the controller unfenced it, and its own metadata image shows that a
 * moment later.
 */
async function expectListed(port: number, expected: { nodeId: number; port: number }[]) {
  const { value } = await pollUntil(
    async () => {
      const listed = await listedBrokers(port);
      const wanted = { metadata: expected, describeCluster: expected };
      return isDeepStrictEqual(listed, wanted) ? listed : undefined;
    },
    { deadlineMs: 15_000, intervalMs: 100, what: `brokers ${JSON.stringify(expected)} listed` },
  ).catch(async (error: unknown) => {
    throw new Error(`${String(error)}; listed ${JSON.stringify(await listedBrokers(port))}`);
  });
  return value;
}

/** The brokers the broker at `port` lists in Metadata and in DescribeCluster. */
async function listedBrokers(port: number) {
  const endpoint = { host: "127.0.0.1", port };
  const fromMetadata = await request(endpoint, metadata, { topics: [] }, { maxVersion: 12 });
  const fromDescribe = await request(endpoint, describeCluster, {}, { maxVersion: 1 });
  return {
    metadata: fromMetadata.brokers.map(({ nodeId, port: at }) => ({ nodeId, port: at })),
    describeCluster: fromDescribe.brokers.map(({ brokerId, port: at }) => ({
      nodeId: brokerId,
      port: at,
    })),
  };
}

const TITLE = "a broker without node.id is given an id by the controller and keeps it as it moves";

test(TITLE, async () => {
  const dir = temporaryDir("assigned-id");
  const clusterId = (await sluice(["random-uuid"])).trim();
  const { voters } = await startController(dir, clusterId);

  const broker = new ClusterNode("broker", join(dir, "broker"));
  await configureBroker(broker, voters, await freePort());
  const formatted = await broker.format(clusterId);
  assert.match(formatted, /no node\.id/);
  const blank = metaProperties(broker.logDir);
  assert.equal(blank.get("node.id"), undefined, "formatted without node.id");
  assert.equal(blank.get("cluster.id"), clusterId);
  const directoryId = blank.get("directory.id");
  assert.ok(directoryId !== undefined && directoryId !== "", "formatted with a directory.id");

  const firstPort = await startBroker(broker, voters);
  const kept = metaProperties(broker.logDir);
  const assignedId = Number(kept.get("node.id"));
  assert.ok(assignedId >= 1000, `the assigned id ${assignedId} is at or above the id base`);
  assert.equal(kept.get("directory.id"), directoryId, "the dir keeps its directory.id");
  assert.equal(kept.get("cluster.id"), clusterId);
  await expectListed(firstPort, [{ nodeId: assignedId, port: firstPort }]);

  await broker.stop("SIGTERM");
  const secondPort = await startBroker(broker, voters);
  assert.notEqual(secondPort, firstPort);
  assert.equal(Number(metaProperties(broker.logDir).get("node.id")), assignedId);
  assert.match(broker.log, new RegExp(`Sluice listening on PLAINTEXT://127.0.0.1:${secondPort}`));
  await expectListed(secondPort, [{ nodeId: assignedId, port: secondPort }]);
});
