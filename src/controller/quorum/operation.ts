/**
 * The operations of the quorum controller's queue. A write computes records and a response from
 * the latest in-memory image (the committed image plus the records of earlier writes that are
 * not committed yet); the driver proposes the records as one batch and answers once it commits.
 * A read computes its response from the committed image once every earlier write has committed.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { Crypto, Random } from "../../ports/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import type { BrokerHeartbeats, PartitionHooks } from "../cluster/index.js";
import type { ElectionReport } from "../election/index.js";
import type { QuorumControllerSettings } from "./controller-settings.js";

export interface WriteContext {
  /** The latest in-memory image: committed plus every earlier uncommitted write. */
  readonly image: MetadataImage;
  /** The controller's soft state of broker contacts. */
  readonly heartbeats: BrokerHeartbeats;
  /** The controller's monotonic time, in milliseconds. */
  readonly nowMs: number;
  /** The offset this operation's first record will get (the broker epoch of a registration). */
  readonly nextWriteOffset: number;
  readonly random: Random;
  /** Partition moves for broker events; elections they make are logged by the driver. */
  readonly hooks: PartitionHooks;
  readonly settings: QuorumControllerSettings;
  readonly nodeId: number;
  /** The ids of the quorum's voters in the voter set in force. */
  readonly voterIds: readonly number[];
  /** Hashes for SCRAM credentials; undefined on a controller that serves no SCRAM API. */
  readonly crypto: Crypto | undefined;
}

export interface WriteResult<Response> {
  /** Records to propose as one atomic batch; with none, the answer waits for earlier writes. */
  readonly records: readonly MetadataRecord[];
  readonly response: Response;
  /** The next soft state of broker contacts, when the operation changed it. */
  readonly heartbeats?: BrokerHeartbeats;
  /** Elections among the records, for the log. */
  readonly elections?: readonly ElectionReport[];
  /** True when the batch must start at `nextWriteOffset` exactly (a broker registration). */
  readonly needsExactOffset?: boolean;
}

export interface ReadContext {
  /** The committed image, which holds every write queued before the read. */
  readonly image: MetadataImage;
  readonly settings: QuorumControllerSettings;
  readonly nodeId: number;
}

/** Why the controller did not run an operation, for the API's error response. */
export interface ControllerRefusal {
  /** NOT_CONTROLLER, REQUEST_TIMED_OUT (queue full or Raft throttled), or UNKNOWN_SERVER_ERROR. */
  readonly errorCode: number;
  readonly errorMessage: string;
  /** The active controller as far as this node knows, for forwarding; null when unknown. */
  readonly leaderId: number | null;
}

export interface WriteOperation<Response> {
  readonly kind: "write";
  /** The operation's name, for metrics and logs (e.g. "CreateTopics"). */
  readonly name: string;
  compute(context: WriteContext): WriteResult<Response>;
  refuse(refusal: ControllerRefusal): Response;
}

export interface ReadOperation<Response> {
  readonly kind: "read";
  readonly name: string;
  compute(context: ReadContext): Response;
  refuse(refusal: ControllerRefusal): Response;
}

export type ControllerOperation<Response> = WriteOperation<Response> | ReadOperation<Response>;
