/**
 * A simulated node of the cluster: sim/raft's RaftProcess (the pure RaftNode on a modelled disk,
 * with crashes and pauses) plus, per incarnation, a member that runs on it: a controller on a
 * voter, a broker on an observer. The member is built at every start and dropped at a crash.
 * Broker-to-controller messages share the Raft messages' simulated links, so partitions and
 * lossy links hit both.
 */
import type { SimNetwork } from "../net/sim-network.js";
import { RaftChecker, type CheckedReplica } from "../raft/checker.js";
import { RaftProcess, type ProcessWorld } from "../raft/raft-process.js";
import type { RaftEnvelope } from "../raft/settings.js";
import type { Scheduler } from "../scheduler.js";
import type { ClusterEnvelope } from "./settings.js";

/** What runs on a process in one incarnation. */
export interface ClusterMember {
  /** The node took an input or announced a high watermark (null when it only took an input). */
  onRaftProgress(highWatermark: number | null): void;
  /** A message of the broker-to-controller channel arrived. */
  receive(envelope: ClusterEnvelope, from: string): void;
  /** The process crashed. */
  stop(): void;
}

/** Every message on the simulated links: Raft's and the brokers'. */
export type AnyEnvelope = RaftEnvelope | ClusterEnvelope;

/** What a member needs from the simulated world. */
export interface MemberWorld {
  readonly scheduler: Scheduler;
  readonly network: SimNetwork<AnyEnvelope>;
}

function isClusterEnvelope(envelope: AnyEnvelope): envelope is ClusterEnvelope {
  return envelope.kind === "brokerRequest" || envelope.kind === "brokerResponse";
}

/**
 * The Raft checker, which also tells each process's member when its node moved on: the driver
 * reports every input and every high watermark it applies to the checker.
 */
export class ClusterRaftChecker extends RaftChecker {
  override afterInput(replica: CheckedReplica): void {
    super.afterInput(replica);
    if (replica instanceof ClusterProcess) replica.member?.onRaftProgress(null);
  }

  override highWatermarkMoved(replica: CheckedReplica, highWatermark: number): void {
    super.highWatermarkMoved(replica, highWatermark);
    if (replica instanceof ClusterProcess) replica.member?.onRaftProgress(highWatermark);
  }
}

/** A RaftProcess with a member per incarnation. */
export class ClusterProcess extends RaftProcess {
  member: ClusterMember | null = null;

  constructor(
    id: number,
    config: ConstructorParameters<typeof RaftProcess>[1],
    private readonly clusterWorld: ProcessWorld & MemberWorld,
    private readonly createMember: (process: ClusterProcess) => ClusterMember,
  ) {
    super(id, config, clusterWorld);
  }

  /** Starts the node from its disk, then the member; messages go to whichever they are for. */
  override start(): void {
    super.start();
    this.clusterWorld.network.onMessage(this.name, (envelope, from) => {
      if (isClusterEnvelope(envelope)) this.enqueue(() => this.member?.receive(envelope, from));
      else this.enqueue(() => this.messaging.receive(envelope, from));
    });
    this.member = this.createMember(this);
    // The node may already know a high watermark (it never does at start; harmless if so).
    this.member.onRaftProgress(this.node?.highWatermark ?? null);
  }

  /** Kills the process and its member. */
  override crash(): void {
    this.member?.stop();
    this.member = null;
    super.crash();
  }
}
