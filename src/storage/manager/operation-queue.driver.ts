/**
 * Runs the log manager's operations one after another, so that a delete, a replica swap and the
 * periodic work never interleave at their awaits (Kafka takes its logCreationOrDeletionLock and
 * the partition locks for the same reason).
 */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `operation` after every operation given before it has settled. */
  run<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => operation());
    // The next operation waits for this one whatever its outcome; the caller sees the outcome.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
