/**
 * The partition leader's side of KIP-890 part 1 (Kafka's VerificationStateEntry and
 * VerificationGuard): before the first transactional batch of a producer is taken while no
 * transaction of its is ongoing here, the leader asks the transaction coordinator whether the
 * partition is in the producer's transaction. The guard made when the question is asked must be
 * the one the append brings back: any transactional batch written meanwhile (the producer's
 * first one, or an end marker that ended the transaction) removes it, so a stale answer never
 * lets a batch in (the ABA case: verified, aborted, then a new transaction that does not hold
 * the partition). While a verification is pending, a batch whose sequence is above the lowest one
 * that asked is refused, so that no later batch overtakes the first. Pure.
 */

/** One verification under way; compared by identity. */
export interface VerificationGuard {
  readonly id: number;
}

interface VerificationEntry {
  readonly guard: VerificationGuard;
  readonly startedAtMs: number;
  lowestSequence: number;
  epoch: number;
}

/** The verifications under way on one partition, by producer id. */
export class TransactionVerifications {
  private readonly entries = new Map<number, VerificationEntry>();
  private nextId = 1;

  /**
   * The guard of `producerId`'s verification, started now if none is (Kafka's
   * maybeCreateVerificationStateEntry); a lower sequence of the same epoch, or any sequence of
   * a later epoch, becomes the lowest one that asked.
   */
  start(
    producerId: number,
    asked: { readonly sequence: number; readonly epoch: number; readonly nowMs: number },
  ): VerificationGuard {
    let entry = this.entries.get(producerId);
    if (entry === undefined) {
      const guard = { id: this.nextId++ };
      entry = {
        guard,
        startedAtMs: asked.nowMs,
        lowestSequence: asked.sequence,
        epoch: asked.epoch,
      };
      this.entries.set(producerId, entry);
    } else if (asked.epoch > entry.epoch) {
      entry.epoch = asked.epoch;
      entry.lowestSequence = asked.sequence;
    } else if (asked.epoch === entry.epoch && asked.sequence < entry.lowestSequence) {
      entry.lowestSequence = asked.sequence;
    }
    return entry.guard;
  }

  /** Whether `guard` is the one of `producerId`'s verification under way. */
  isCurrent(producerId: number, guard: VerificationGuard | undefined): boolean {
    return guard !== undefined && this.entries.get(producerId)?.guard === guard;
  }

  /** The lowest sequence of `producerId`'s verification under way, if one is. */
  lowestSequenceOf(producerId: number): number | undefined {
    return this.entries.get(producerId)?.lowestSequence;
  }

  /** Ends `producerId`'s verification: a transactional batch of it was written. */
  clear(producerId: number): void {
    this.entries.delete(producerId);
  }

  /** Drops verifications started at least `expirationMs` ago (no append came back). */
  removeExpired(nowMs: number, expirationMs: number): void {
    for (const [producerId, entry] of this.entries) {
      if (nowMs - entry.startedAtMs >= expirationMs) this.entries.delete(producerId);
    }
  }
}
