/**
 * The messages a Raft node receives and sends: complete Kafka message bodies of the codec's
 * types, tagged with their API so a switch over them is exhaustive.
 */
import type {
  AddRaftVoterRequest,
  AddRaftVoterResponse,
  BeginQuorumEpochRequest,
  BeginQuorumEpochResponse,
  DescribeQuorumRequest,
  DescribeQuorumResponse,
  EndQuorumEpochRequest,
  EndQuorumEpochResponse,
  FetchRequest,
  FetchResponse,
  FetchSnapshotRequest,
  FetchSnapshotResponse,
  RemoveRaftVoterRequest,
  RemoveRaftVoterResponse,
  UpdateRaftVoterRequest,
  UpdateRaftVoterResponse,
  VoteRequest,
  VoteResponse,
} from "../protocol/index.js";
import type { SnapshotId } from "./types.js";

/** A request body the node handles or sends, by API. */
export type RaftRequest =
  | { readonly api: "vote"; readonly body: VoteRequest }
  | { readonly api: "beginQuorumEpoch"; readonly body: BeginQuorumEpochRequest }
  | { readonly api: "endQuorumEpoch"; readonly body: EndQuorumEpochRequest }
  | { readonly api: "fetch"; readonly body: FetchRequest }
  | { readonly api: "fetchSnapshot"; readonly body: FetchSnapshotRequest }
  | { readonly api: "describeQuorum"; readonly body: DescribeQuorumRequest }
  | { readonly api: "addRaftVoter"; readonly body: AddRaftVoterRequest }
  | { readonly api: "removeRaftVoter"; readonly body: RemoveRaftVoterRequest }
  | { readonly api: "updateRaftVoter"; readonly body: UpdateRaftVoterRequest };

/** A response body the node handles or sends, by API. */
export type RaftResponse =
  | { readonly api: "vote"; readonly body: VoteResponse }
  | { readonly api: "beginQuorumEpoch"; readonly body: BeginQuorumEpochResponse }
  | { readonly api: "endQuorumEpoch"; readonly body: EndQuorumEpochResponse }
  | { readonly api: "fetch"; readonly body: FetchResponse }
  | { readonly api: "fetchSnapshot"; readonly body: FetchSnapshotResponse }
  | { readonly api: "describeQuorum"; readonly body: DescribeQuorumResponse }
  | { readonly api: "addRaftVoter"; readonly body: AddRaftVoterResponse }
  | { readonly api: "removeRaftVoter"; readonly body: RemoveRaftVoterResponse }
  | { readonly api: "updateRaftVoter"; readonly body: UpdateRaftVoterResponse };

export type RaftApi = RaftRequest["api"];

/** A request the driver received, with the id its response will carry. */
export interface InboundRequest {
  /** Chosen by the driver, unique among this node's unanswered inbound requests. */
  readonly requestId: number;
  /** The sender's node id when the connection knows it (a controller peer), otherwise null. */
  readonly senderId: number | null;
  readonly request: RaftRequest;
}

/** A response to a request the node sent, matched by the node's request id. */
export interface InboundResponse {
  readonly requestId: number;
  readonly response: RaftResponse;
}

/**
 * Log data the driver reads into a Fetch response before sending it: the bytes of the log from
 * `fromOffset` (whole batches, at least one when any exists, then as many as fit `maxBytes`),
 * put into the single partition's `records`.
 */
export interface LogRead {
  readonly kind: "log";
  readonly fromOffset: number;
  readonly maxBytes: number;
}

/**
 * Snapshot data the driver reads into a FetchSnapshot response: up to `maxBytes` of the
 * snapshot file from `position`, put into the partition's `unalignedRecords`.
 */
export interface SnapshotRead {
  readonly kind: "snapshot";
  readonly snapshotId: SnapshotId;
  readonly position: number;
  readonly maxBytes: number;
}

export type OutboundMessage =
  | {
      readonly kind: "request";
      /** The node's own id for this request; the response or failure must carry it. */
      readonly requestId: number;
      readonly destinationId: number;
      readonly request: RaftRequest;
    }
  | {
      readonly kind: "response";
      /** The id of the inbound request this answers. */
      readonly requestId: number;
      readonly response: RaftResponse;
      /** Data the driver must read into the body first, if any. */
      readonly read: LogRead | SnapshotRead | null;
    };
