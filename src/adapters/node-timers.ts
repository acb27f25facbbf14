import type { Timer, Timers } from "../ports/index.js";

export interface NodeTimersOptions {
  /**
   * When true (the default), a pending timer does not keep the process alive by itself: the
   * process exits once only timers are left, as a broker stopping should not wait for a tick.
   */
  readonly unref?: boolean;
}

export class NodeTimers implements Timers {
  private readonly unref: boolean;

  constructor(options: NodeTimersOptions = {}) {
    this.unref = options.unref ?? true;
  }

  schedule(delayMs: number, callback: () => void): Timer {
    // setTimeout treats negative and NaN delays as 1 ms; we clamp to 0 to say what we mean.
    const handle = setTimeout(callback, Number.isFinite(delayMs) ? Math.max(0, delayMs) : 0);
    if (this.unref) handle.unref();
    return { cancel: () => clearTimeout(handle) };
  }
}
