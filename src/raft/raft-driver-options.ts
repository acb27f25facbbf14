/**
 * What a Raft driver is built from and what it answers: its options, the transport it sends
 * requests through, and the outcome of a snapshot request.
 */
import type { Clock, FileSystem, Logger, MetricsSink, Random, Timers } from "../ports/index.js";
import type { RaftConfig } from "./config.js";
import type { RaftListener } from "./log/commit-delivery.driver.js";
import type { RaftRequest, RaftResponse } from "./messages.js";
import type { RaftRole } from "./raft-node.js";
import type { SnapshotInfo } from "./types.js";

/**
 * Sends the node's requests to other nodes (the project's client, in the composition root).
 * Never rejects: a timeout, a disconnect or an unknown node resolves to undefined.
 */
export interface RaftTransport {
  send(destinationId: number, request: RaftRequest): Promise<RaftResponse | undefined>;
}

export interface RaftDriverOptions {
  readonly config: RaftConfig;
  readonly fs: FileSystem;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  /** `metadata.log.dir`; the log lives in its `__cluster_metadata-0` folder. */
  readonly metadataLogDir: string;
  readonly transport: RaftTransport;
  readonly listeners: readonly RaftListener[];
  /** `metadata.log.segment.bytes` (Kafka's default 1 GiB). */
  readonly segmentBytes?: number;
  /** How long `shutdown` waits for a successor after resigning (default: the election timeout). */
  readonly shutdownWaitMs?: number;
  /** Told of an I/O failure of the metadata log; the node stops, and the owner should halt. */
  readonly onFatalError: (error: unknown) => void;
  /** Where Kafka's raft-metrics rates and latencies go (raft-metrics.ts); none when absent. */
  readonly metrics?: MetricsSink;
}

export type SnapshotResult =
  | { readonly ok: true; readonly snapshot: SnapshotInfo }
  | { readonly ok: false; readonly reason: "notCommitted" | "notNewer" | "stopped" };

/** What a driver reports about its node and log, for tests, metrics and the command line. */
export interface RaftDriverStatus {
  readonly role: RaftRole;
  readonly epoch: number;
  readonly leaderId: number | null;
  /** Null before the node knows one. */
  readonly highWatermark: number | null;
  readonly logStartOffset: number;
  /** The end of what was written, durable or not. */
  readonly logEndOffset: number;
  /** The fsync rounds run so far (group commit makes them fewer than the appends). */
  readonly flushCount: number;
  /** The offset of the next record listeners will get. */
  readonly deliveredEndOffset: number;
  /** The ids of the voters in the voter set in force. */
  readonly voterIds: readonly number[];
}
