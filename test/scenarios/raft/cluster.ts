/**
 * A few RaftNode instances wired together for scenario tests: one clock, a queue of messages
 * in flight that the script delivers or drops, partitions, and a fake disk per node. Every
 * output is applied as a driver would and rendered as text lines.
 */
import assert from "node:assert/strict";
import type { Uuid } from "../../../src/common/index.js";
import {
  DEFAULT_RAFT_TIMINGS,
  RaftNode,
  type OutboundMessage,
  type RaftConfig,
  type RaftOutput,
  type RaftRequest,
  type RaftResponse,
} from "../../../src/raft/index.js";
import { SeededRandom } from "../../../sim/random.js";
import { FakeDisk, fillResponse } from "./fake-disk.js";
import { describeBatches, describeRequest, describeResponse } from "./render.js";

type Envelope =
  | {
      readonly kind: "request";
      readonly from: number;
      readonly to: number;
      readonly requestId: number;
      readonly request: RaftRequest;
    }
  | {
      readonly kind: "response";
      readonly from: number;
      readonly to: number;
      readonly requestId: number;
      readonly response: RaftResponse;
    };

/** The id that stands for an admin client in scenarios. */
export const CLIENT_ID = 0;

interface Member {
  node: RaftNode;
  readonly config: RaftConfig;
  readonly disk: FakeDisk;
  readonly routes: Map<number, { from: number; requestId: number }>;
  nextInboundId: number;
}

/** The directory id of a scenario node: a fixed UUID derived from its id. */
export function directoryOf(id: number): Uuid {
  return id.toString(16).padStart(2, "0").repeat(16) as Uuid;
}

/** A scenario's cluster. */
export class Cluster {
  nowMs = 0;
  readonly members = new Map<number, Member>();
  private queue: Envelope[] = [];
  private readonly partitioned = new Set<number>();
  lines: string[] = [];

  constructor(options: {
    voters: number[];
    observers: number[];
    kraftVersion: 0 | 1;
    seed: number;
    /** FetchSnapshot's chunk size; small ones make a download take several round trips. */
    snapshotChunkBytes?: number;
  }) {
    const bootstrapVoters = options.voters.map((id) => ({
      id,
      directoryId: options.kraftVersion === 1 ? directoryOf(id) : null,
      endpoints: [{ name: "CONTROLLER", host: `node${id}`, port: 9093 }],
    }));
    for (const id of [...options.voters, ...options.observers]) {
      const disk = new FakeDisk();
      const config: RaftConfig = {
        nodeId: id,
        directoryId: directoryOf(id),
        clusterId: "scenario",
        listeners: [{ name: "CONTROLLER", host: `node${id}`, port: 9093 }],
        bootstrapVoters,
        kraftVersion: options.kraftVersion,
        timings: {
          ...DEFAULT_RAFT_TIMINGS,
          snapshotChunkBytes: options.snapshotChunkBytes ?? DEFAULT_RAFT_TIMINGS.snapshotChunkBytes,
        },
      };
      const node = new RaftNode({
        config,
        random: new SeededRandom(options.seed, `node-${id}`),
        electionState: disk.electionState,
        log: disk.shape(),
        nowMs: 0,
      });
      this.members.set(id, { node, config, disk, routes: new Map(), nextInboundId: 1 });
    }
  }

  /** The member with this id. */
  member(id: number): Member {
    const member = this.members.get(id);
    assert.ok(member !== undefined, `node ${id} exists`);
    return member;
  }

  /** Applies an output of node `id` as a driver would, rendering each part. */
  apply(id: number, output: RaftOutput): void {
    const { disk, node } = this.member(id);
    const say = (text: string): number => this.lines.push(`n${id}: ${text}`);
    if (output.quorumState !== null) {
      disk.electionState = output.quorumState;
      const q = output.quorumState;
      say(`persist epoch=${q.leaderEpoch} leader=${q.leaderId} voted=${q.votedId}`);
    }
    if (output.truncateTo !== null) {
      disk.truncate(output.truncateTo);
      say(`truncate to ${output.truncateTo}`);
    }
    if (output.append !== null) {
      disk.append(output.append.batches);
      say(`append ${output.append.batches.map((batch) => describeBatches(batch)).join(" ")}`);
    }
    const follow: (() => RaftOutput)[] = [];
    for (const action of output.snapshotActions)
      follow.push(...this.applySnapshotAction(id, action));
    for (const message of output.send) this.send(id, message);
    if (output.highWatermark !== null) say(`high watermark ${output.highWatermark}`);
    if (output.leaderChanged !== null) {
      say(
        `leader ${output.leaderChanged.leaderId ?? "unknown"} in epoch` +
          ` ${output.leaderChanged.epoch}`,
      );
    }
    // The driver confirms persistence once the append is durable: at once, in this world.
    if (output.append !== null) {
      const endOffset = output.append.endOffset;
      follow.push(() => node.logAppended(this.nowMs, { endOffset }));
    }
    for (const next of follow) this.apply(id, next());
  }

  private applySnapshotAction(
    id: number,
    action: RaftOutput["snapshotActions"][number],
  ): (() => RaftOutput)[] {
    const { disk, node } = this.member(id);
    const say = (text: string): number => this.lines.push(`n${id}: ${text}`);
    const name = (snapshotId: { endOffset: number; epoch: number }): string =>
      `${snapshotId.endOffset}-${snapshotId.epoch}`;
    switch (action.kind) {
      case "writeSnapshotChunk":
        disk.writeChunk(action.snapshotId, action.position, action.bytes);
        say(
          `write snapshot ${name(action.snapshotId)} chunk at ${action.position}` +
            ` (${action.bytes.length} bytes)`,
        );
        return [];
      case "installSnapshot": {
        const info = disk.install(action.snapshotId, action.sizeBytes);
        say(`install snapshot ${name(action.snapshotId)}`);
        return [() => node.snapshotLoaded(this.nowMs, info)];
      }
      case "abandonSnapshotDownload":
        disk.abandon(action.snapshotId);
        say(`abandon snapshot download ${name(action.snapshotId)}`);
        return [];
      case "deleteLogBefore":
        disk.deleteBefore(action.offset);
        say(`delete log before ${action.offset}`);
        return [];
      case "deleteSnapshot":
        disk.deleteSnapshot(action.snapshotId);
        say(`delete snapshot ${name(action.snapshotId)}`);
        return [];
    }
  }

  private send(from: number, message: OutboundMessage): void {
    if (message.kind === "request") {
      this.lines.push(`n${from} -> n${message.destinationId}: ${describeRequest(message.request)}`);
      this.queue.push({
        kind: "request",
        from,
        to: message.destinationId,
        requestId: message.requestId,
        request: message.request,
      });
      return;
    }
    const response = fillResponse(this.member(from).disk, message);
    const route = this.member(from).routes.get(message.requestId);
    assert.ok(route !== undefined, "a response answers a delivered request");
    this.member(from).routes.delete(message.requestId);
    const target = route.from === CLIENT_ID ? "client" : `n${route.from}`;
    this.lines.push(`n${from} -> ${target}: ${describeResponse(response)}`);
    if (route.from === CLIENT_ID) return;
    this.queue.push({
      kind: "response",
      from,
      to: route.from,
      requestId: route.requestId,
      response,
    });
  }

  /** Delivers the queued messages that match, in order; new messages wait for the next call. */
  deliver(filter: { from?: number; to?: number }): void {
    const matches = (envelope: Envelope): boolean =>
      (filter.from === undefined || envelope.from === filter.from) &&
      (filter.to === undefined || envelope.to === filter.to);
    const chosen = this.queue.filter(matches);
    this.queue = this.queue.filter((envelope) => !matches(envelope));
    for (const envelope of chosen) this.deliverOne(envelope);
  }

  private deliverOne(envelope: Envelope): void {
    const receiver = this.member(envelope.to);
    const isCut = this.partitioned.has(envelope.from) || this.partitioned.has(envelope.to);
    if (isCut) {
      // A cut link: the requester learns of the failure as a driver's disconnect would.
      this.lines.push(`n${envelope.from} -> n${envelope.to}: lost`);
      const requester = envelope.kind === "request" ? envelope.from : envelope.to;
      this.apply(
        requester,
        this.member(requester).node.handleRequestFailure(this.nowMs, envelope.requestId),
      );
      return;
    }
    if (envelope.kind === "response") {
      this.apply(
        envelope.to,
        receiver.node.handleResponse(this.nowMs, {
          requestId: envelope.requestId,
          response: envelope.response,
        }),
      );
      return;
    }
    const inboundId = receiver.nextInboundId++;
    receiver.routes.set(inboundId, { from: envelope.from, requestId: envelope.requestId });
    const inbound = { requestId: inboundId, senderId: envelope.from, request: envelope.request };
    this.apply(envelope.to, receiver.node.handleRequest(this.nowMs, inbound));
  }

  /** Drops the queued messages that match. */
  drop(filter: { from?: number; to?: number }): void {
    const before = this.queue.length;
    this.queue = this.queue.filter(
      (envelope) =>
        !(
          (filter.from === undefined || envelope.from === filter.from) &&
          (filter.to === undefined || envelope.to === filter.to)
        ),
    );
    this.lines.push(`dropped ${before - this.queue.length}`);
  }

  /** A request from an admin client. */
  clientRequest(to: number, request: RaftRequest): void {
    const receiver = this.member(to);
    const inboundId = receiver.nextInboundId++;
    receiver.routes.set(inboundId, { from: CLIENT_ID, requestId: -1 });
    this.apply(
      to,
      receiver.node.handleRequest(this.nowMs, { requestId: inboundId, senderId: null, request }),
    );
  }

  /** Cuts or restores every link of a node. */
  setPartitioned(id: number, isPartitioned: boolean): void {
    if (isPartitioned) this.partitioned.add(id);
    else this.partitioned.delete(id);
  }

  /** The queued messages, one line each. */
  pending(): string[] {
    return this.queue.map(
      (envelope) =>
        `n${envelope.from} -> n${envelope.to}:` +
        ` ${envelope.kind === "request" ? describeRequest(envelope.request) : ""}` +
        `${envelope.kind === "response" ? describeResponse(envelope.response) : ""}`,
    );
  }

  /** Restarts a node from its disk, as after a crash: everything in memory is lost. */
  restart(id: number, seed: number): void {
    const member = this.member(id);
    this.queue = this.queue.filter((envelope) => envelope.from !== id && envelope.to !== id);
    member.routes.clear();
    member.node = new RaftNode({
      config: member.config,
      random: new SeededRandom(seed, `node-${id}-restart`),
      electionState: member.disk.electionState,
      log: member.disk.shape(),
      nowMs: this.nowMs,
    });
    this.lines.push(`n${id}: restarted as ${member.node.state.kind} in epoch ${member.node.epoch}`);
  }
}
