import { test } from "node:test";
import assert from "node:assert/strict";
import { ByteReader, ByteWriter, fetch, type FetchRequest } from "../protocol/index.js";
import {
  FETCH_REPLICA_STATE_VERSION_MIN,
  fetchRequestForVersion,
  fetchWireForms,
  RAFT_FETCH_VERSION_MIN,
} from "./fetch-versions.js";
import { buildFetchRequest } from "./request-builders.js";
import type { Uuid } from "../common/index.js";

const NODE_ID = 3;

/** A follower's Fetch as the node builds it, with a real last fetched epoch and directory. */
function nodeFetch(): FetchRequest {
  return buildFetchRequest({
    clusterId: "raft-cluster-0001",
    replicaKey: { id: NODE_ID, directoryId: "b0000000000000000000000000000007" as Uuid },
    epoch: 4,
    fetchOffset: 120,
    lastFetchedEpoch: 3,
    maxWaitMs: 500,
    maxBytes: 8 * 1024 * 1024,
  });
}

function roundTrip(version: number, body: FetchRequest): FetchRequest {
  const writer = new ByteWriter();
  fetch.encodeRequest(version, body, writer);
  return fetch.decodeRequest(version, new ByteReader(writer.finish()));
}

/** The fetching replica as a leader reads it from a decoded request. */
function fetchingReplica(decoded: FetchRequest): number {
  return decoded.replicaState.replicaId >= 0 ? decoded.replicaState.replicaId : decoded.replicaId;
}

test("the node's Fetch encodes at every version 12-17 and names the fetching replica", () => {
  for (let version = RAFT_FETCH_VERSION_MIN; version <= 17; version++) {
    const body = fetchRequestForVersion(nodeFetch(), version);
    assert.ok(body !== undefined, `version ${version} is usable`);
    const decoded = roundTrip(version, body);
    assert.equal(fetchingReplica(decoded), NODE_ID, `version ${version}`);
    const field = version >= FETCH_REPLICA_STATE_VERSION_MIN ? "replicaState" : "replicaId";
    const named = field === "replicaState" ? decoded.replicaState.replicaId : decoded.replicaId;
    assert.equal(named, NODE_ID, `version ${version} names the replica in ${field}`);
    const partition = decoded.topics[0]?.partitions[0];
    assert.equal(partition?.fetchOffset, 120);
    assert.equal(partition?.lastFetchedEpoch, 3);
    assert.equal(partition?.currentLeaderEpoch, 4);
  }
});

test("versions 0-11 cannot carry the last fetched epoch, so a replica never uses them", () => {
  for (let version = 0; version < RAFT_FETCH_VERSION_MIN; version++) {
    assert.equal(fetchRequestForVersion(nodeFetch(), version), undefined);
    const withReplicaId = { ...nodeFetch(), replicaState: { replicaId: -1, replicaEpoch: -1 } };
    assert.throws(() => roundTrip(version, withReplicaId), `version ${version} refuses it`);
  }
});

test("the builder's body, naming the replica both ways, fits no version as it is", () => {
  for (let version = 0; version <= 17; version++) {
    assert.throws(() => roundTrip(version, nodeFetch()), `version ${version}`);
  }
});

test("the wire forms cover versions 12-17 without a gap, newest first", () => {
  const forms = fetchWireForms(nodeFetch());
  assert.deepEqual(
    forms.map((form) => [form.minVersion, form.maxVersion]),
    [
      [15, 17],
      [12, 14],
    ],
  );
  for (const form of forms) {
    for (let version = form.minVersion; version <= form.maxVersion; version++) {
      assert.equal(fetchingReplica(roundTrip(version, form.body)), NODE_ID);
    }
  }
});
