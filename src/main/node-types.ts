/**
 * What every part of a node shares: the ports it runs on, the error that refuses a start with a
 * message for the operator, and the node's identity once its storage is formatted.
 */
import type { ClientSecurity } from "../client/index.js";
import type { NodeId, Uuid } from "../common/index.js";
import type {
  Address,
  Clock,
  Crypto,
  FileSystem,
  Logger,
  MetricsSink,
  Network,
  Random,
  Timers,
} from "../ports/index.js";

export interface NodePorts {
  readonly fs: FileSystem;
  readonly network: Network;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
  /** Hashes for SASL/SCRAM; a node without it refuses SASL listeners. */
  readonly crypto?: Crypto | undefined;
  /**
   * How the node's own client reaches the controller and the inter-broker listeners (TLS
   * material read from the config's files at start); plain TCP when unset.
   */
  readonly peerSecurity?: PeerSecurity | undefined;
  /** The process's limit on open files, when the platform tells it (see readOpenFileLimit). */
  readonly openFileLimit?: number | undefined;
}

/** The client security of the node's connections to other nodes. */
export interface PeerSecurity {
  readonly controller: ClientSecurity;
  readonly interBroker: ClientSecurity;
}

/** Why a node could not start: a message for the operator, naming the key or dir at fault. */
export class NodeStartError extends Error {
  override readonly name = "NodeStartError";
}

/** Who this node is, from meta.properties of its dirs. */
export interface NodeIdentity {
  readonly nodeId: NodeId;
  readonly clusterId: string;
  /** The directory.id of the metadata log dir (the Raft replica's directory id, KIP-853). */
  readonly metadataDirectoryId: Uuid;
  /** True when this start formatted the storage (a new cluster or a new node). */
  readonly wasFormatted: boolean;
}

/** The HTTP endpoint a node was given: where it listens, and how it stops. */
export interface NodeHttpServer {
  readonly address: Address;
  close(): Promise<void>;
}
