/**
 * The Kafka APIs a Raft driver answers and sends, by API key: the bridge between the codec's
 * keys and the node's tagged messages.
 */
import {
  addRaftVoter,
  beginQuorumEpoch,
  describeQuorum,
  endQuorumEpoch,
  fetch,
  fetchSnapshot,
  removeRaftVoter,
  updateRaftVoter,
  vote,
  type ApiCodec,
} from "../protocol/index.js";
import type { RaftApi, RaftRequest } from "./messages.js";

/** The codec of each API the node speaks. */
export const RAFT_API_CODECS: Readonly<Record<RaftApi, ApiCodec<object, object>>> = {
  vote,
  beginQuorumEpoch,
  endQuorumEpoch,
  fetch,
  fetchSnapshot,
  describeQuorum,
  addRaftVoter,
  removeRaftVoter,
  updateRaftVoter,
} as unknown as Readonly<Record<RaftApi, ApiCodec<object, object>>>;

/** The node's name of the API with this key, or undefined when the node does not serve it. */
export function raftApiOfKey(apiKey: number): RaftApi | undefined {
  for (const [api, codec] of Object.entries(RAFT_API_CODECS)) {
    if (codec.apiKey === apiKey) return api as RaftApi;
  }
  return undefined;
}

/** A decoded request body of the API with this key, as the node's tagged request. */
export function raftRequestOf(apiKey: number, body: object): RaftRequest | undefined {
  const api = raftApiOfKey(apiKey);
  // The codec decoded `body` with the schema of this very API, so the tag is its type.
  return api === undefined ? undefined : ({ api, body } as RaftRequest);
}
