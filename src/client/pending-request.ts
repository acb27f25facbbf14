/**
 * One request from `send` until it settles: its API, body, the caller's version limits, its
 * timer, and the one-shot function that hands the result to the caller.
 */
import type { Timer } from "../ports/index.js";
import { encodeRequest, isEncodeError, type MessageInput } from "../protocol/index.js";
import type { ClientFailure, ClientResult } from "./client-result.js";
import type { VersionWish } from "./version-negotiation.js";

/**
 * A request body, or the function that builds it for the version negotiation picked: a request
 * whose fields differ between versions (AlterPartition's ISR, Fetch's replica id) is built for
 * the version it goes out at, so it always encodes.
 */
export type RequestBody<Request> =
  MessageInput<Request> | ((apiVersion: number) => MessageInput<Request>);

export interface RequestOptions extends VersionWish {
  /** Overrides `request.timeout.ms` for this request. */
  readonly timeoutMs?: number;
}

/**
 * A request waiting for a connection slot ("queued") or for its response ("inFlight"). It
 * settles exactly once; later settle calls are ignored, so a timeout racing a response or a
 * disconnect cannot answer the caller twice.
 */
export class PendingRequest {
  state: "queued" | "inFlight" | "settled" = "queued";
  apiVersion = -1;
  timer: Timer | undefined;

  constructor(
    readonly apiKey: number,
    readonly body: RequestBody<object>,
    readonly options: RequestOptions,
    readonly timeoutMs: number,
    private readonly deliver: (result: ClientResult<Record<string, unknown>>) => void,
  ) {}

  /** Hands `result` to the caller and stops the timer; false when already settled. */
  settle(result: ClientResult<Record<string, unknown>>): boolean {
    if (this.state === "settled") return false;
    this.state = "settled";
    this.timer?.cancel();
    this.timer = undefined;
    this.deliver(result);
    return true;
  }

  /** Settles with a failure; false when already settled. */
  fail(failure: ClientFailure): boolean {
    return this.settle(failure);
  }

  /**
   * The request framed at `apiVersion`, marked in flight; or undefined when the body cannot be
   * sent at that version, and the request has failed with `encodeError`.
   */
  encode(
    apiVersion: number,
    header: { readonly correlationId: number; readonly clientId: string },
  ): Uint8Array[] | undefined {
    let chunks: Uint8Array[];
    try {
      const body = typeof this.body === "function" ? this.body(apiVersion) : this.body;
      chunks = encodeRequest({ ...header, apiKey: this.apiKey, apiVersion }, body);
    } catch (error) {
      if (!isEncodeError(error)) throw error;
      this.fail({ kind: "encodeError", error, apiKey: this.apiKey, apiVersion });
      return undefined;
    }
    this.apiVersion = apiVersion;
    this.state = "inFlight";
    return chunks;
  }
}
