/**
 * A broker's producer ids (Kafka's RPCProducerIdManager), pure: ids are handed out from the
 * current block the controller granted (AllocateProducerIds), and the next block is asked for
 * when 90% of the current one is used, so that a busy broker rarely waits. With no id left and
 * no next block, the caller answers COORDINATOR_LOAD_IN_PROGRESS (retriable, where older clients
 * treat REQUEST_TIMED_OUT as fatal) and a request goes out. A refused or lost request is tried
 * again only after RETRY_BACKOFF_MS. At most one request is in flight.
 *
 * States of the next block: absent and not asked for, asked for (in flight), held. A held block
 * becomes the current one when the current one runs out.
 */
/** Kafka's PidPrefetchThreshold: the share of a block used before the next one is asked for. */
export const PREFETCH_THRESHOLD = 0.9;

/** Kafka's RetryBackoffMs of the producer id manager. */
export const RETRY_BACKOFF_MS = 50;

/** A block of producer ids: `length` ids from `start`. */
export interface ProducerIdBlock {
  readonly start: number;
  readonly length: number;
}

/** The controller's answer to AllocateProducerIds, or the error that stands for it. */
export type BlockAnswer =
  | ({ readonly kind: "block" } & ProducerIdBlock)
  | { readonly kind: "error"; readonly errorCode: number };

/** The outcome of a claim: an id or none, and whether to send AllocateProducerIds now. */
export interface Claim {
  readonly producerId: number | undefined;
  readonly shouldRequestBlock: boolean;
}

export class ProducerIdBlocks {
  private current: ProducerIdBlock = { start: 0, length: 0 };
  private nextId = 0;
  private nextBlock: ProducerIdBlock | undefined;
  private isRequestInFlight = false;
  private backoffDeadlineMs: number | undefined;

  /** The next producer id, if a block holds one; see the file comment. */
  claim(nowMs: number): Claim {
    if (this.nextId >= this.current.start + this.current.length) {
      const block = this.nextBlock;
      if (block === undefined) {
        return { producerId: undefined, shouldRequestBlock: this.maybeStartRequest(nowMs) };
      }
      this.current = block;
      this.nextId = block.start;
      this.nextBlock = undefined;
    }
    const producerId = this.nextId++;
    const prefetchAt = this.current.start + Math.floor(this.current.length * PREFETCH_THRESHOLD);
    const shouldRequestBlock = producerId === prefetchAt && this.maybeStartRequest(nowMs);
    return { producerId, shouldRequestBlock };
  }

  /**
   * Takes the controller's answer to the request in flight. A block that is not above the
   * current one, or not a valid range, is refused as Kafka refuses it (and retried later).
   */
  onAnswer(answer: BlockAnswer, nowMs: number): void {
    this.isRequestInFlight = false;
    if (answer.kind === "block" && this.isValidNext(answer)) {
      this.nextBlock = { start: answer.start, length: answer.length };
      return;
    }
    this.backoffDeadlineMs = nowMs + RETRY_BACKOFF_MS;
  }

  private isValidNext(block: ProducerIdBlock): boolean {
    const currentEnd = this.current.start + this.current.length;
    return (
      block.start >= currentEnd &&
      block.length > 0 &&
      Number.isSafeInteger(block.start + block.length)
    );
  }

  private maybeStartRequest(nowMs: number): boolean {
    if (this.backoffDeadlineMs !== undefined && nowMs < this.backoffDeadlineMs) return false;
    if (this.nextBlock !== undefined || this.isRequestInFlight) return false;
    this.isRequestInFlight = true;
    this.backoffDeadlineMs = undefined;
    return true;
  }
}
