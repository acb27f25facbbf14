/**
 * The broker's client quotas: the produce and fetch byte rates (`producer_byte_rate`,
 * `consumer_byte_rate`) and the request-time share (`request_percentage`) of the current
 * metadata image, measured at the clock's monotonic time. A request is told apart by its
 * principal's name and its client id, as Kafka's quotas are.
 *
 * The request-time quota counts a request's local time (Kafka's LocalTimeMs), as a percentage of
 * one second: 100 is the whole of one event loop, as Kafka's 100 is one request handler thread.
 * Its throttle times are bounded by one window, as Kafka's ClientRequestQuotaManager bounds them.
 */
import type { ClientQuotasImage } from "../../metadata/index.js";
import type { Clock } from "../../ports/index.js";
import type { RateWindow } from "../../replication/index.js";
import type { HandlerContext } from "../router/handler.js";
import { ClientQuotaManager, type QuotaClient } from "./client-quota-manager.js";

/** What the quotas count a request as. */
type QuotaRequest = Pick<HandlerContext, "header" | "connection">;

export class ClientQuotas {
  readonly produce: ClientQuotaManager;
  readonly fetch: ClientQuotaManager;
  readonly request: ClientQuotaManager;

  /** `window`: `quota.window.num` samples of `quota.window.size.seconds`. */
  constructor(
    private readonly clock: Clock,
    private readonly image: () => ClientQuotasImage,
    window: RateWindow,
  ) {
    this.produce = new ClientQuotaManager("producer_byte_rate", window);
    this.fetch = new ClientQuotaManager("consumer_byte_rate", window);
    this.request = new ClientQuotaManager("request_percentage", window, window.windowMs);
  }

  /** Counts a request's local time; the throttle time, 0 within the quota. */
  recordRequest(request: QuotaRequest, localMs: number): number {
    const nowMs = this.clock.monotonicMs();
    // Percent of one second: 1000 ms of local time is 100 %·s.
    const value = Math.max(0, localMs) / 10;
    return this.request.recordAndGetThrottleTimeMs(this.image(), clientOf(request), value, nowMs);
  }

  /**
   * Counts an answered Produce request's bytes and, unless acks=0 (which Kafka exempts), its
   * local time; the larger throttle time, 0 within both quotas.
   */
  recordProduce(request: QuotaRequest, answered: ProduceAnswered): number {
    const nowMs = this.clock.monotonicMs();
    const client = clientOf(request);
    const { bytes, acks, localMs } = answered;
    const bandwidthMs = this.produce.recordAndGetThrottleTimeMs(this.image(), client, bytes, nowMs);
    const requestMs = acks === 0 ? 0 : this.recordRequest(request, localMs);
    return Math.max(bandwidthMs, requestMs);
  }

  /**
   * Counts a consumer Fetch's local time and its answer's bytes; the larger throttle time, 0
   * within both quotas. A throttled fetch is answered empty, so its bytes are taken back, as
   * Kafka does.
   */
  recordFetch(request: QuotaRequest, bytes: number, localMs: number): number {
    const requestMs = this.recordRequest(request, localMs);
    const nowMs = this.clock.monotonicMs();
    const image = this.image();
    const client = clientOf(request);
    const bandwidthMs = this.fetch.recordAndGetThrottleTimeMs(image, client, bytes, nowMs);
    const throttleTimeMs = Math.max(bandwidthMs, requestMs);
    if (throttleTimeMs > 0) this.fetch.unrecord(image, client, bytes, nowMs);
    return throttleTimeMs;
  }

  /** The most bytes one consumer Fetch may answer with (Kafka's getMaxValueInQuotaWindow). */
  fetchBytesMax(request: QuotaRequest): number {
    return Math.floor(this.fetch.maxValueInQuotaWindow(this.image(), clientOf(request)));
  }
}

/** What an answered Produce counts. */
export interface ProduceAnswered {
  /** The request's size in bytes. */
  readonly bytes: number;
  readonly acks: number;
  readonly localMs: number;
}

function clientOf({ header, connection }: QuotaRequest): QuotaClient {
  return { user: connection.principal.name, clientId: header.clientId ?? "" };
}
