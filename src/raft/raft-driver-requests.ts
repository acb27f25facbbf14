/**
 * A Raft driver's requests in flight: the inbound ones it was given and has not answered yet,
 * each under a request id unique among them (the node's InboundRequest.requestId), and the
 * outbound ones the node sent through the transport.
 */
import type { RaftRequest, RaftResponse } from "./messages.js";
import type { RaftTransport } from "./raft-driver-options.js";

/** The most inbound requests waiting for the node's answer; more are refused at once. */
export const INBOUND_REQUESTS_MAX = 10_000;

interface Waiting {
  resolve(response: RaftResponse): void;
  reject(error: Error): void;
}

/** Unanswered inbound requests. */
export class InboundRequests {
  private readonly waiting = new Map<number, Waiting>();
  private nextRequestId = 1;

  get isFull(): boolean {
    return this.waiting.size >= INBOUND_REQUESTS_MAX;
  }

  /** Registers a request; `begin` is given its id and the promise settles with its answer. */
  add(begin: (requestId: number) => void): Promise<RaftResponse> {
    const requestId = this.nextRequestId++;
    return new Promise<RaftResponse>((resolve, reject) => {
      this.waiting.set(requestId, { resolve, reject });
      begin(requestId);
    });
  }

  /** Answers request `requestId`; an id no longer waiting (failed at a stop) is ignored. */
  answer(requestId: number, response: RaftResponse): void {
    const waiting = this.waiting.get(requestId);
    this.waiting.delete(requestId);
    waiting?.resolve(response);
  }

  failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

/** Requests the node sent and whose answers have not come back yet. */
export class OutboundRequests {
  private readonly sent = new Set<Promise<void>>();

  constructor(
    private readonly transport: RaftTransport,
    /** Given each answer: the response, or undefined for a failure. */
    private readonly answered: (requestId: number, response: RaftResponse | undefined) => void,
  ) {}

  send(requestId: number, destinationId: number, request: RaftRequest): void {
    const sent = this.transport
      .send(destinationId, request)
      .then(
        (response) => response,
        // The transport promises not to reject; should one, the request simply failed.
        () => undefined,
      )
      .then((response) => {
        this.sent.delete(sent);
        this.answered(requestId, response);
      });
    this.sent.add(sent);
  }
}
