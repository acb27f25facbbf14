/**
 * The controller's Raft transport against peers on loopback that serve different Fetch
 * versions: it sends the form of the newest version the peer serves, falling back from the
 * replicaState form (15+, KIP-903) to the replicaId form (12-14).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ConsoleLogger,
  CryptoRandom,
  NodeNetwork,
  NodeTimers,
  SystemClock,
} from "../../src/adapters/index.js";
import type { Uuid } from "../../src/common/index.js";
import { loadNodeConfig, SINGLE_NODE_PRESET } from "../../src/main/index.js";
import { ClientRaftTransport } from "../../src/main/controller-node-raft.js";
import {
  API_VERSIONS_KEY,
  fetch,
  type FetchRequest,
  type FetchResponse,
} from "../../src/protocol/index.js";
import { buildFetchRequest } from "../../src/raft/request-builders.js";
import { TestBroker, type ReceivedRequest } from "../client/test-broker.js";

const LEADER_ID = 1;
const FOLLOWER_ID = 2;

/** A follower's Fetch as the node builds it: the replica named both ways. */
function nodeFetch(): FetchRequest {
  return buildFetchRequest({
    clusterId: "raft-cluster-0001",
    replicaKey: { id: FOLLOWER_ID, directoryId: "b0000000000000000000000000000007" as Uuid },
    epoch: 3,
    fetchOffset: 42,
    lastFetchedEpoch: 2,
    maxWaitMs: 0,
    maxBytes: 1024,
  });
}

function emptyFetchResponse(): FetchResponse {
  return {
    throttleTimeMs: 0,
    errorCode: 0,
    sessionId: 0,
    responses: [],
    nodeEndpoints: [],
  } as unknown as FetchResponse;
}

/** Runs one Fetch through the transport to a peer serving `fetchVersions`. */
async function fetchFrom(fetchVersions: { minVersion: number; maxVersion: number }) {
  const network = new NodeNetwork();
  const peer = new TestBroker([
    { apiKey: API_VERSIONS_KEY, minVersion: 0, maxVersion: 4 },
    { apiKey: fetch.apiKey, ...fetchVersions },
  ]);
  const seen: ReceivedRequest[] = [];
  peer.onRequest = (request) => {
    seen.push(request);
    request.reply(emptyFetchResponse());
  };
  const address = await peer.listen(network, { host: "127.0.0.1", port: 0 });
  const loaded = loadNodeConfig({
    base: SINGLE_NODE_PRESET,
    flags: [`controller.quorum.voters=${LEADER_ID}@127.0.0.1:${address.port}`],
    environment: {},
  });
  assert.equal(loaded.kind, "valid");
  if (loaded.kind !== "valid") throw new Error("unreachable");
  const clock = new SystemClock();
  const ports = {
    network,
    clock,
    timers: new NodeTimers(),
    random: new CryptoRandom(),
    logger: new ConsoleLogger({ clock, level: "error" }),
  };
  const transport = new ClientRaftTransport(ports, loaded.config, FOLLOWER_ID);
  try {
    const response = await transport.send(LEADER_ID, { api: "fetch", body: nodeFetch() });
    return { response, seen };
  } finally {
    transport.close();
    await peer.close();
  }
}

test("a peer serving only Fetch 12-14 gets the replicaId form at version 14", async () => {
  const { response, seen } = await fetchFrom({ minVersion: 12, maxVersion: 14 });
  assert.equal(response?.api, "fetch");
  assert.equal(seen.length, 1);
  const request = seen[0] as ReceivedRequest;
  assert.equal(request.header.apiVersion, 14);
  assert.equal(request.body["replicaId"], FOLLOWER_ID);
  const partition = (request.body as unknown as FetchRequest).topics[0]?.partitions[0];
  assert.equal(partition?.fetchOffset, 42);
  assert.equal(partition?.lastFetchedEpoch, 2);
});

test("a peer serving Fetch 4-17 gets the replicaState form at version 17", async () => {
  const { response, seen } = await fetchFrom({ minVersion: 4, maxVersion: 17 });
  assert.equal(response?.api, "fetch");
  const request = seen[0] as ReceivedRequest;
  assert.equal(request.header.apiVersion, 17);
  const body = request.body as unknown as FetchRequest;
  assert.equal(body.replicaState.replicaId, FOLLOWER_ID);
  assert.equal(body.replicaId, -1);
});

test("a peer serving no Fetch version a replica can use gets no request", async () => {
  const { response, seen } = await fetchFrom({ minVersion: 4, maxVersion: 11 });
  assert.equal(response, undefined);
  assert.equal(seen.length, 0);
});
