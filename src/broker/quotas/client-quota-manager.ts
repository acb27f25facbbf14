/**
 * One client quota's rates and throttle times, as Kafka's ClientQuotaManager keeps them: each
 * group of clients that shares a quota (`quota-resolution.ts`) has one rate over sampled windows
 * (`quota.window.num` of `quota.window.size.seconds`, Kafka's Rate). A request's value is
 * recorded, and when the rate is then above the bound the request is throttled for the time
 * that would bring the rate back to the bound if nothing more came:
 * (rate - bound) / bound * the measured span (Kafka's QuotaUtils.throttleTime).
 *
 * Nothing is measured while no entity sets the quota's key. A group's rate is forgotten after an
 * hour without a request, as Kafka expires its quota sensors, which bounds the memory to the
 * groups active in the last hour.
 */
import type { ClientQuotasImage } from "../../metadata/index.js";
import { WindowedRate, type RateWindow } from "../../replication/index.js";
import { isQuotaKeySet, resolveQuota, type ResolvedQuota } from "./quota-resolution.js";

/** The largest throttle time a response can carry (throttle_time_ms is an int32). */
export const THROTTLE_TIME_MS_MAX = 2 ** 31 - 1;

/** Kafka's ClientQuotaManager.InactiveSensorExpirationTimeSeconds. */
export const QUOTA_SENSOR_EXPIRY_MS = 3_600_000;

/** Who a request is from, as quotas tell clients apart. */
export interface QuotaClient {
  /** The principal's name (ANONYMOUS without authentication). */
  readonly user: string;
  readonly clientId: string;
}

interface Sensor {
  readonly rate: WindowedRate;
  lastRecordMs: number;
}

export class ClientQuotaManager {
  private readonly sensors = new Map<string, Sensor>();
  private lastExpiryMs = 0;
  private resolvedFor: ClientQuotasImage | undefined;
  private isEnabled = false;

  /**
   * `key` is the quota key this manager enforces (producer_byte_rate, ...); `throttleTimeMsMax`
   * bounds its throttle times (Kafka bounds the request-time quota's to one window).
   */
  constructor(
    readonly key: string,
    private readonly window: RateWindow,
    private readonly throttleTimeMsMax = THROTTLE_TIME_MS_MAX,
  ) {}

  /** The quota that binds `client` in `image`. */
  quotaOf(image: ClientQuotasImage, client: QuotaClient): ResolvedQuota {
    return resolveQuota(image, this.key, client.user, client.clientId);
  }

  /**
   * Records `value` for `client` at `nowMs` and answers the throttle time in ms, 0 when the
   * client's rate stays within its quota (Kafka's maybeRecordAndGetThrottleTimeMs).
   */
  recordAndGetThrottleTimeMs(
    image: ClientQuotasImage,
    client: QuotaClient,
    value: number,
    nowMs: number,
  ): number {
    if (!this.isKeySet(image)) return 0;
    const quota = this.quotaOf(image, client);
    const sensor = this.sensorOf(quota, nowMs);
    sensor.rate.record(value, nowMs);
    if (quota.bound === Infinity) return 0;
    const rate = sensor.rate.ratePerSecond(nowMs);
    if (rate <= quota.bound) return 0;
    const throttleTimeMs = ((rate - quota.bound) / quota.bound) * sensor.rate.spanMs(nowMs);
    // The response's throttle_time_ms is an int32: a longer time is answered as its largest.
    return Math.min(Math.round(throttleTimeMs), THROTTLE_TIME_MS_MAX, this.throttleTimeMsMax);
  }

  /**
   * Takes back a value recorded for a request that was throttled and answered empty (Kafka's
   * unrecordQuotaSensor, for a throttled Fetch), so that it is not counted twice.
   */
  unrecord(image: ClientQuotasImage, client: QuotaClient, value: number, nowMs: number): void {
    if (!this.isKeySet(image)) return;
    this.sensorOf(this.quotaOf(image, client), nowMs).rate.record(-value, nowMs);
  }

  /**
   * The most that one request may take without being sure to be throttled: the bound over all
   * but one of the windows (Kafka's getMaxValueInQuotaWindow, which bounds a fetch's size).
   */
  maxValueInQuotaWindow(image: ClientQuotasImage, client: QuotaClient): number {
    if (!this.isKeySet(image)) return Infinity;
    const { bound } = this.quotaOf(image, client);
    return (bound * (this.window.samples - 1) * this.window.windowMs) / 1000;
  }

  /** The groups measured now; for tests and metrics. */
  get sensorCount(): number {
    return this.sensors.size;
  }

  private isKeySet(image: ClientQuotasImage): boolean {
    if (this.resolvedFor !== image) {
      this.resolvedFor = image;
      this.isEnabled = isQuotaKeySet(image, this.key);
    }
    return this.isEnabled;
  }

  private sensorOf(quota: ResolvedQuota, nowMs: number): Sensor {
    this.maybeExpire(nowMs);
    const name = JSON.stringify([quota.user, quota.clientId]);
    let sensor = this.sensors.get(name);
    if (sensor === undefined) {
      sensor = { rate: new WindowedRate(this.window), lastRecordMs: nowMs };
      this.sensors.set(name, sensor);
    }
    sensor.lastRecordMs = nowMs;
    return sensor;
  }

  /** Forgets, at most once a minute, the groups idle for QUOTA_SENSOR_EXPIRY_MS. */
  private maybeExpire(nowMs: number): boolean {
    if (nowMs - this.lastExpiryMs < 60_000) return false;
    this.lastExpiryMs = nowMs;
    for (const [name, sensor] of this.sensors) {
      if (nowMs - sensor.lastRecordMs >= QUOTA_SENSOR_EXPIRY_MS) this.sensors.delete(name);
    }
    return true;
  }
}
