/**
 * A simulated process's side of the controller listener: inbound requests get ids the node
 * answers with, responses find their way back to the requesting incarnation, and every request
 * the node sends fails if unanswered: at once when the peer is down (connection refused) or
 * crashes (connection reset), otherwise after the request timeout.
 */
import { assert } from "../../src/common/index.js";
import type { Timer } from "../../src/ports/index.js";
import type { OutboundMessage } from "../../src/raft/index.js";
import type { ProcessWorld, RaftProcess } from "./raft-process.js";
import { nodeName, requestTimeoutMs, type RaftEnvelope } from "./settings.js";

interface Route {
  readonly from: number;
  readonly requestId: number;
  readonly requesterIncarnation: number;
}

/** The requests in flight both ways for one process incarnation. */
export class ProcessMessaging {
  private routes = new Map<number, Route>();
  private nextInboundId = 1;
  private readonly requestTimers = new Map<number, { timer: Timer; destinationId: number }>();

  constructor(
    private readonly process: RaftProcess,
    private readonly world: ProcessWorld,
  ) {}

  /** Forgets everything in flight (the process crashed). */
  reset(): void {
    this.routes = new Map();
    this.requestTimers.clear();
  }

  /** Hands a delivered message to the node. */
  receive(envelope: RaftEnvelope, from: string): void {
    const process = this.process;
    const senderId = Number(from.slice(1));
    if (envelope.kind === "response") {
      // A response to an earlier incarnation died with that incarnation's connection.
      if (envelope.requesterIncarnation !== process.incarnation) return;
      this.requestTimers.get(envelope.requestId)?.timer.cancel();
      this.requestTimers.delete(envelope.requestId);
      const inbound = { requestId: envelope.requestId, response: envelope.response };
      process.input((node, nowMs) => node.handleResponse(nowMs, inbound));
      return;
    }
    const requestId = this.nextInboundId++;
    const { requesterIncarnation } = envelope;
    this.routes.set(requestId, {
      from: senderId,
      requestId: envelope.requestId,
      requesterIncarnation,
    });
    const inbound = { requestId, senderId, request: envelope.request };
    process.input((node, nowMs) => node.handleRequest(nowMs, inbound));
  }

  /** Sends a request (with its failure timer) or a response to the request it answers. */
  send(message: OutboundMessage): void {
    const name = this.process.name;
    if (message.kind === "request") {
      const { requestId, request } = message;
      const to = nodeName(message.destinationId);
      const requesterIncarnation = this.process.incarnation;
      const envelope: RaftEnvelope = { kind: "request", requestId, requesterIncarnation, request };
      this.world.network.send(name, to, envelope);
      const isRefused = !this.world.scheduler.node(to).isUp;
      this.scheduleFailure(requestId, message.destinationId, isRefused);
      return;
    }
    const route = this.routes.get(message.requestId);
    assert(route !== undefined, "a response answers a request this incarnation received");
    this.routes.delete(message.requestId);
    const envelope: RaftEnvelope = {
      kind: "response",
      requestId: route.requestId,
      requesterIncarnation: route.requesterIncarnation,
      response: message.response,
    };
    this.world.network.send(name, nodeName(route.from), envelope);
  }

  /** A peer crashed: its connections reset, so requests in flight to it fail soon. */
  peerCrashed(peerId: number): void {
    for (const [requestId, pending] of this.requestTimers) {
      if (pending.destinationId !== peerId) continue;
      pending.timer.cancel();
      this.scheduleFailure(requestId, peerId, true);
    }
  }

  private scheduleFailure(requestId: number, destinationId: number, isReset: boolean): void {
    const delayMs = isReset ? this.world.scheduler.random.between(1, 5) : requestTimeoutMs;
    const label = isReset ? "connection refused" : "request timeout";
    const timer = this.process.later(delayMs, label, () => {
      this.requestTimers.delete(requestId);
      this.process.input((node, nowMs) => node.handleRequestFailure(nowMs, requestId));
    });
    this.requestTimers.set(requestId, { timer, destinationId });
  }
}
