/**
 * The broker's way to the active controller (Kafka's NodeToControllerChannelManager): every
 * request goes to the current target of `ControllerTargets`; a transport failure or a
 * NOT_CONTROLLER answer moves to the next controller and the request is sent again, after
 * `retry.backoff.ms`, until the request's deadline passes. The caller gets the controller's
 * answer or one Kafka error code saying why there is none.
 *
 * A node that follows the metadata log learns of a new Raft leader (the next active controller)
 * the moment its election ends, and tells the channel through `followLeader`: the target moves to
 * that leader at once, and every request waiting on another controller (an attempt in flight,
 * a reconnect backoff or a retry backoff) is sent to it without waiting any longer. Kafka's
 * channel does the same: it disconnects from the old controller when the leader changes, and the
 * requests that were in flight are sent again to the new one.
 */
import { ErrorCode, type NodeId } from "../../common/index.js";
import type { Clock, Logger, Timer, Timers } from "../../ports/index.js";
import { apiDefinition, type ApiCodec } from "../../protocol/index.js";
import {
  describeFailure,
  type ClientFailure,
  type ClientPool,
  type ClientTarget,
  type RequestBody,
} from "../../client/index.js";
import { carriesNotController } from "./not-controller.js";
import { ControllerTargets, type ControllerEndpoint } from "./controller-targets.js";

/** Settings of the channel, named after the Kafka configs they mirror. */
export interface ControllerChannelOptions {
  /** `controller.quorum.voters` (with ids) or `controller.quorum.bootstrap.servers`. */
  readonly endpoints: readonly ControllerEndpoint[];
  /** `request.timeout.ms`: one attempt's longest wait for an answer (Kafka's default 30000). */
  readonly requestTimeoutMs: number;
  /** `retry.backoff.ms`: the wait before sending again after a failure (Kafka's default 100). */
  readonly retryBackoffMs: number;
  /** The metadata log's Raft leader as this node knows it, when it follows the log. */
  readonly leaderHint?: () => NodeId | undefined;
}

/** The ports the channel uses besides its client pool. */
export interface ControllerChannelPorts {
  readonly pool: ClientPool;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** Per-request settings. */
export interface ControllerSendOptions {
  /** How long the request may take, retries included; `request.timeout.ms` when absent. */
  readonly timeoutMs?: number;
  readonly minVersion?: number;
  readonly maxVersion?: number;
  /** Whether an answer means "not the controller"; by default any NOT_CONTROLLER in it. */
  readonly isNotController?: (body: object) => boolean;
}

/** The controller's answer, or the error code that stands for its absence. */
export type ControllerSendResult<Response> =
  | {
      readonly kind: "response";
      readonly body: Response;
      readonly apiVersion: number;
      readonly controller: ControllerEndpoint;
    }
  | { readonly kind: "failed"; readonly errorCode: number; readonly message: string };

/** A channel to whichever controller is active; see the file comment. */
export class ControllerChannel {
  private readonly targets: ControllerTargets;
  private isClosed = false;
  /** Settles when the target moves to a new Raft leader; replaced each time it does. */
  private leaderMove = newLeaderMove();

  constructor(
    private readonly ports: ControllerChannelPorts,
    private readonly options: ControllerChannelOptions,
  ) {
    this.targets = new ControllerTargets(options.endpoints);
    for (const endpoint of options.endpoints) {
      if (endpoint.nodeId !== undefined)
        ports.pool.setNodeAddress(endpoint.nodeId, endpoint.address);
    }
  }

  /** The controller the next request goes to. */
  get currentController(): ControllerEndpoint {
    return this.targets.target;
  }

  /**
   * The metadata log has a new Raft leader (undefined while an election runs): when it is a
   * configured controller, the target moves to it, requests waiting out a retry backoff are sent
   * to it now, and attempts in flight to another controller are abandoned and sent to it.
   */
  followLeader(leaderId: NodeId | undefined): void {
    if (!this.targets.maybeFollowLeader(leaderId)) return;
    const moved = this.leaderMove;
    this.leaderMove = newLeaderMove();
    moved.settle();
  }

  /** Sends `body` to the active controller; resolves to its answer or a failure, never rejects. */
  async send<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    body: RequestBody<Request>,
    options: ControllerSendOptions = {},
  ): Promise<ControllerSendResult<Response>> {
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    const deadlineMs = this.ports.clock.monotonicMs() + timeoutMs;
    const isNotController = options.isNotController ?? carriesNotController;
    let lastProblem = "no controller answered";
    for (;;) {
      if (this.isClosed) return failed(ErrorCode.REQUEST_TIMED_OUT, "the channel was closed");
      const remainingMs = deadlineMs - this.ports.clock.monotonicMs();
      if (remainingMs <= 0) {
        return failed(ErrorCode.REQUEST_TIMED_OUT, `no answer in ${timeoutMs} ms: ${lastProblem}`);
      }
      this.followLeader(this.options.leaderHint?.());
      const controller = this.targets.target;
      const attemptMs = Math.min(remainingMs, this.options.requestTimeoutMs);
      const moved = this.leaderMove.settled;
      const attempt = this.ports.pool.send(targetOf(controller), api, body, {
        timeoutMs: attemptMs,
        ...versionWish(options),
      });
      let result = await Promise.race([attempt, moved]);
      if (result === LEADER_MOVED) {
        // An attempt to another controller is abandoned: its answer, if one comes, is not the
        // new leader's. An attempt already at the new leader is its answer.
        if (this.targets.target !== controller) continue;
        result = await attempt;
      }
      if (result.kind === "response" && !isNotController(result.body)) {
        return { kind: "response", body: result.body, apiVersion: result.apiVersion, controller };
      }
      if (result.kind === "encodeError") {
        // The body was built by this node for the version negotiated: not encoding is a bug.
        this.ports.logger.error("a request to the controller does not encode", {
          api: apiDefinition(result.apiKey)?.name ?? String(result.apiKey),
          apiVersion: result.apiVersion,
          error: result.error.message,
        });
      }
      const final = result.kind === "response" ? undefined : finalFailure(result);
      if (final !== undefined) return final;
      lastProblem = result.kind === "response" ? "NOT_CONTROLLER" : describeFailure(result);
      this.ports.logger.debug("controller request failed; trying the next controller", {
        apiKey: api.apiKey,
        controller: controller.nodeId ?? `${controller.address.host}:${controller.address.port}`,
        problem: lastProblem,
      });
      this.targets.moveOn();
      await this.pause(Math.min(this.options.retryBackoffMs, remainingMs), moved);
    }
  }

  /** Ends the channel: requests waiting for a retry give up; the pool belongs to the caller. */
  close(): void {
    this.isClosed = true;
  }

  /** Waits `delayMs`, or less when the target moves to a new leader meanwhile. */
  private async pause(delayMs: number, moved: Promise<typeof LEADER_MOVED>): Promise<void> {
    let timer: Timer | undefined;
    const elapsed = new Promise<void>((resolve) => {
      timer = this.ports.timers.schedule(delayMs, resolve);
    });
    await Promise.race([elapsed, moved]);
    timer?.cancel();
  }
}

/** What a wait on `LeaderMove.settled` resolves to. */
const LEADER_MOVED = Symbol("leader moved");

/** A one-shot signal that the target moved to a new Raft leader. */
interface LeaderMove {
  readonly settled: Promise<typeof LEADER_MOVED>;
  readonly settle: () => void;
}

function newLeaderMove(): LeaderMove {
  let settle: () => void = () => undefined;
  const settled = new Promise<typeof LEADER_MOVED>((resolve) => {
    settle = () => resolve(LEADER_MOVED);
  });
  return { settled, settle };
}

function targetOf(controller: ControllerEndpoint): ClientTarget {
  return controller.nodeId ?? controller.address;
}

function versionWish(options: ControllerSendOptions): { minVersion?: number; maxVersion?: number } {
  const wish: { minVersion?: number; maxVersion?: number } = {};
  if (options.minVersion !== undefined) wish.minVersion = options.minVersion;
  if (options.maxVersion !== undefined) wish.maxVersion = options.maxVersion;
  return wish;
}

function failed(errorCode: number, message: string): ControllerSendResult<never> {
  return { kind: "failed", errorCode, message };
}

/**
 * The failures another controller would not cure: the request cannot be written at any version
 * the caller allows. Every other failure (timeout, lost connection, an answer that did not
 * decode) may be the current target's alone.
 */
function finalFailure(failure: ClientFailure): ControllerSendResult<never> | undefined {
  switch (failure.kind) {
    case "unsupportedVersion":
      return failed(ErrorCode.UNSUPPORTED_VERSION, describeFailure(failure));
    case "encodeError":
      return failed(ErrorCode.INVALID_REQUEST, describeFailure(failure));
    default:
      return undefined;
  }
}
