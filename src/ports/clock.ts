/** The source of time. Domain code reads time only through this port. */
export interface Clock {
  /** Wall-clock milliseconds since the Unix epoch (record timestamps, file times). */
  nowMs(): number;
  /** Milliseconds from an arbitrary origin that never goes backwards (deadlines, durations). */
  monotonicMs(): number;
}
