/**
 * The broker's client quotas: the produce and fetch byte rates (`producer_byte_rate`,
 * `consumer_byte_rate`) of the current metadata image, measured at the clock's monotonic time.
 * A request is told apart by its principal's name and its client id, as Kafka's quotas are.
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

  /** `window`: `quota.window.num` samples of `quota.window.size.seconds`. */
  constructor(
    private readonly clock: Clock,
    private readonly image: () => ClientQuotasImage,
    window: RateWindow,
  ) {
    this.produce = new ClientQuotaManager("producer_byte_rate", window);
    this.fetch = new ClientQuotaManager("consumer_byte_rate", window);
  }

  /** Counts a Produce request's bytes; the throttle time, 0 within the quota. */
  recordProduce(request: QuotaRequest, bytes: number): number {
    const nowMs = this.clock.monotonicMs();
    return this.produce.recordAndGetThrottleTimeMs(this.image(), clientOf(request), bytes, nowMs);
  }

  /**
   * Counts a consumer Fetch response's bytes; the throttle time, 0 within the quota. A throttled
   * fetch is answered empty, so its bytes are taken back, as Kafka does.
   */
  recordFetch(request: QuotaRequest, bytes: number): number {
    const nowMs = this.clock.monotonicMs();
    const image = this.image();
    const client = clientOf(request);
    const throttleTimeMs = this.fetch.recordAndGetThrottleTimeMs(image, client, bytes, nowMs);
    if (throttleTimeMs > 0) this.fetch.unrecord(image, client, bytes, nowMs);
    return throttleTimeMs;
  }

  /** The most bytes one consumer Fetch may answer with (Kafka's getMaxValueInQuotaWindow). */
  fetchBytesMax(request: QuotaRequest): number {
    return Math.floor(this.fetch.maxValueInQuotaWindow(this.image(), clientOf(request)));
  }
}

function clientOf({ header, connection }: QuotaRequest): QuotaClient {
  return { user: connection.principal.name, clientId: header.clientId ?? "" };
}
