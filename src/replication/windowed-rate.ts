/**
 * A rate over sampled windows, as Kafka's quotas measure it (its SimpleRate over a WindowedSum):
 * values fall into samples of `windowMs` each, at most `samples` + 1 of them kept (the extra one
 * overlaps the start of the measured span). A sample whose last value is `samples * windowMs`
 * old no longer counts. The rate is the sum of the samples over the time since the oldest one
 * began, but never over less than one window, so a first burst is not read as a huge rate.
 */

/** `replication.quota.window.num` samples of `replication.quota.window.size.seconds` each. */
export interface RateWindow {
  readonly samples: number;
  readonly windowMs: number;
}

interface Sample {
  value: number;
  startMs: number;
  lastEventMs: number;
}

export class WindowedRate {
  private readonly samples: Sample[] = [];
  private current = 0;

  constructor(private readonly window: RateWindow) {
    if (!(window.samples >= 1 && window.windowMs >= 1)) {
      throw new RangeError("a rate needs at least one sample of at least 1 ms");
    }
  }

  /** Adds `value` at `nowMs`, starting the next sample when the current one is full. */
  record(value: number, nowMs: number): void {
    let sample = this.currentSample(nowMs);
    if (nowMs - sample.startMs >= this.window.windowMs) sample = this.advance(nowMs);
    sample.value += value;
    sample.lastEventMs = nowMs;
  }

  /** The rate at `nowMs`, per second. */
  perSecond(nowMs: number): number {
    this.purgeObsolete(nowMs);
    const total = this.samples.reduce((sum, sample) => sum + sample.value, 0);
    const elapsedMs = nowMs - this.oldestStartMs(nowMs);
    return total / (Math.max(elapsedMs, this.window.windowMs) / 1000);
  }

  /**
   * Kafka's Rate (which client quotas use, where replication throttles use SimpleRate): the sum
   * of the samples over `spanMs`.
   */
  ratePerSecond(nowMs: number): number {
    this.purgeObsolete(nowMs);
    const total = this.samples.reduce((sum, sample) => sum + sample.value, 0);
    return total / (this.spanMs(nowMs) / 1000);
  }

  /**
   * Kafka's Rate.windowSize: the time since the oldest sample began, but at least `samples` - 1
   * whole windows plus what the current window has run (so a first burst is spread over the
   * whole measured span), and at least 1 ms. Throttle times are computed over it.
   */
  spanMs(nowMs: number): number {
    this.purgeObsolete(nowMs);
    let elapsedMs = nowMs - this.oldestStartMs(nowMs);
    const fullWindows = Math.floor(elapsedMs / this.window.windowMs);
    const minimumFullWindows = this.window.samples - 1;
    if (fullWindows < minimumFullWindows) {
      elapsedMs += (minimumFullWindows - fullWindows) * this.window.windowMs;
    }
    return Math.max(elapsedMs, 1);
  }

  private currentSample(nowMs: number): Sample {
    if (this.samples.length === 0) this.samples.push(newSample(nowMs));
    return this.samples[this.current] as Sample;
  }

  private advance(nowMs: number): Sample {
    this.current = (this.current + 1) % (this.window.samples + 1);
    const reused = this.samples[this.current];
    if (reused === undefined) {
      const sample = newSample(nowMs);
      this.samples.push(sample);
      return sample;
    }
    reset(reused, nowMs);
    return reused;
  }

  /** Samples with no value in the measured span start over empty at `nowMs`. */
  private purgeObsolete(nowMs: number): void {
    const expireAgeMs = this.window.samples * this.window.windowMs;
    for (const sample of this.samples) {
      if (nowMs - sample.lastEventMs >= expireAgeMs) reset(sample, nowMs);
    }
  }

  private oldestStartMs(nowMs: number): number {
    if (this.samples.length === 0) this.samples.push(newSample(nowMs));
    return Math.min(...this.samples.map((sample) => sample.startMs));
  }
}

function newSample(nowMs: number): Sample {
  return { value: 0, startMs: nowMs, lastEventMs: nowMs };
}

function reset(sample: Sample, nowMs: number): void {
  sample.value = 0;
  sample.startMs = nowMs;
  sample.lastEventMs = nowMs;
}
