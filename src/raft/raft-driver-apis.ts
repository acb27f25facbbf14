/**
 * The Kafka APIs a Raft driver answers and sends, by API key: the bridge between the codec's
 * keys and the node's tagged messages.
 */
import {
  ApiKey,
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
  type ApiRequest,
  type ApiResponse,
} from "../protocol/index.js";
import type { RaftApi, RaftRequest, RaftResponse } from "./messages.js";

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
};

/**
 * How the bodies of the Raft API `K` become the node's tagged messages: the request a body
 * stands for, and the body of a response when the response is one of API `K`.
 */
export interface RaftApiBridge<K extends ApiKey> {
  readonly apiKey: K;
  request(body: ApiRequest<K>): RaftRequest;
  response(response: RaftResponse): ApiResponse<K> | undefined;
}

function bridge<K extends ApiKey>(
  apiKey: K,
  request: (body: ApiRequest<K>) => RaftRequest,
  response: (response: RaftResponse) => ApiResponse<K> | undefined,
): RaftApiBridge<K> {
  return { apiKey, request, response };
}

/** The bridge of each API the node answers on the controller listener. */
export const RAFT_API_BRIDGES = [
  bridge(
    ApiKey.Vote,
    (body) => ({ api: "vote", body }),
    (response) => (response.api === "vote" ? response.body : undefined),
  ),
  bridge(
    ApiKey.BeginQuorumEpoch,
    (body) => ({ api: "beginQuorumEpoch", body }),
    (response) => (response.api === "beginQuorumEpoch" ? response.body : undefined),
  ),
  bridge(
    ApiKey.EndQuorumEpoch,
    (body) => ({ api: "endQuorumEpoch", body }),
    (response) => (response.api === "endQuorumEpoch" ? response.body : undefined),
  ),
  bridge(
    ApiKey.Fetch,
    (body) => ({ api: "fetch", body }),
    (response) => (response.api === "fetch" ? response.body : undefined),
  ),
  bridge(
    ApiKey.FetchSnapshot,
    (body) => ({ api: "fetchSnapshot", body }),
    (response) => (response.api === "fetchSnapshot" ? response.body : undefined),
  ),
  bridge(
    ApiKey.DescribeQuorum,
    (body) => ({ api: "describeQuorum", body }),
    (response) => (response.api === "describeQuorum" ? response.body : undefined),
  ),
  bridge(
    ApiKey.AddRaftVoter,
    (body) => ({ api: "addRaftVoter", body }),
    (response) => (response.api === "addRaftVoter" ? response.body : undefined),
  ),
  bridge(
    ApiKey.RemoveRaftVoter,
    (body) => ({ api: "removeRaftVoter", body }),
    (response) => (response.api === "removeRaftVoter" ? response.body : undefined),
  ),
  bridge(
    ApiKey.UpdateRaftVoter,
    (body) => ({ api: "updateRaftVoter", body }),
    (response) => (response.api === "updateRaftVoter" ? response.body : undefined),
  ),
];
