/**
 * The Fetch versions a replica of the metadata log can send, and the request body valid for
 * each. The node's builder names the fetching replica both ways, as `replicaId` (versions 0-14)
 * and as `replicaState` (15 and later, KIP-903); the codec refuses a field a version lacks, so
 * a transport sends the form of the version it negotiated. Versions before 12 cannot carry
 * `lastFetchedEpoch` (KIP-595), without which the leader cannot detect a diverging log, so a
 * KRaft peer never fetches with them.
 */
import { assert } from "../common/index.js";
import { fetch, type FetchRequest } from "../protocol/index.js";

/** The first Fetch version with `lastFetchedEpoch`, the oldest a KRaft replica can use. */
export const RAFT_FETCH_VERSION_MIN = 12;
/** The first Fetch version that names the replica in `replicaState` (KIP-903). */
export const FETCH_REPLICA_STATE_VERSION_MIN = 15;

/** A Fetch request body for a range of versions (inclusive). */
export interface FetchWireForm {
  readonly minVersion: number;
  readonly maxVersion: number;
  readonly body: FetchRequest;
}

/**
 * The node's Fetch request as `apiVersion` carries it, or undefined for a version a KRaft
 * replica cannot use (before 12, or beyond the codec).
 */
export function fetchRequestForVersion(
  request: FetchRequest,
  apiVersion: number,
): FetchRequest | undefined {
  if (apiVersion < RAFT_FETCH_VERSION_MIN || apiVersion > fetch.maxVersion) return undefined;
  const replicaId = replicaIdOf(request);
  if (apiVersion >= FETCH_REPLICA_STATE_VERSION_MIN) {
    return { ...request, replicaId: -1, replicaState: { ...request.replicaState, replicaId } };
  }
  return { ...request, replicaId, replicaState: { replicaId: -1, replicaEpoch: -1 } };
}

/**
 * The node's Fetch request in each form a transport may send, newest first: a transport that
 * cannot choose the body after negotiating tries the first form's range, then the next.
 */
export function fetchWireForms(request: FetchRequest): readonly FetchWireForm[] {
  const newest = fetchRequestForVersion(request, fetch.maxVersion);
  const oldest = fetchRequestForVersion(request, RAFT_FETCH_VERSION_MIN);
  assert(newest !== undefined, "the codec's newest Fetch version is usable");
  assert(oldest !== undefined, "Fetch version 12 is usable");
  const replicaIdVersionMax = FETCH_REPLICA_STATE_VERSION_MIN - 1;
  return [
    { minVersion: FETCH_REPLICA_STATE_VERSION_MIN, maxVersion: fetch.maxVersion, body: newest },
    { minVersion: RAFT_FETCH_VERSION_MIN, maxVersion: replicaIdVersionMax, body: oldest },
  ];
}

/** The fetching replica, from whichever field names it. */
function replicaIdOf(request: FetchRequest): number {
  return request.replicaState.replicaId >= 0 ? request.replicaState.replicaId : request.replicaId;
}
