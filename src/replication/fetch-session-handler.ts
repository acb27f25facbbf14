/**
 * The client side of an incremental fetch session (KIP-227, Kafka's FetchSessionHandler), pure:
 * it remembers what the leader's session holds and builds each request as the difference, so a
 * follower whose partitions did not move sends nothing for them.
 *
 * States: no session (sessionId 0, epoch 0: every request is full and asks the leader for a new
 * session) → in a session (its id, epoch 1, 2, ...: requests are incremental). A full request
 * answered with a session id starts one; an error answer, an unexpected partition or a lost
 * request ends it: the next request is full again, closing the old session (its id with epoch 0)
 * when the leader may still hold it.
 */
import { ErrorCode } from "../common/index.js";

/** What a follower asks for one partition; compared field by field between requests. */
export interface SessionPartition {
  readonly topicName: string;
  /** Sent instead of the name from Fetch v13; not part of the key. */
  readonly topicId: string;
  readonly partition: number;
  readonly fetchOffset: number;
  readonly logStartOffset: number;
  readonly partitionMaxBytes: number;
  readonly currentLeaderEpoch: number;
  /** -1 when unknown. */
  readonly lastFetchedEpoch: number;
}

/** One request's session fields and partitions. */
export interface SessionRequest {
  readonly sessionId: number;
  readonly sessionEpoch: number;
  /** Every partition for a full request; only the added and changed ones otherwise. */
  readonly toSend: readonly SessionPartition[];
  /** The partitions the session drops (incremental requests only). */
  readonly toForget: readonly SessionPartition[];
  readonly isFull: boolean;
  /** The partitions the session holds once the request is accepted, by key. */
  readonly sessionPartitions: ReadonlyMap<string, SessionPartition>;
}

/** The Fetch epoch of a request that starts a session. */
const INITIAL_EPOCH = 0;
/** Fetch's "no session" id. */
const INVALID_SESSION_ID = 0;

/** A partition's key in a session: its topic name and index (ids are resolved to names). */
export function sessionPartitionKey(partition: {
  readonly topicName: string;
  readonly partition: number;
}): string {
  return `${partition.topicName}/${partition.partition}`;
}

export class FetchSessionHandler {
  private sessionId = INVALID_SESSION_ID;
  private nextEpoch = INITIAL_EPOCH;
  private sessionPartitions = new Map<string, SessionPartition>();

  /** The request for `wanted`, the partitions the follower fetches now. */
  build(wanted: readonly SessionPartition[]): SessionRequest {
    const next = new Map(wanted.map((partition) => [sessionPartitionKey(partition), partition]));
    if (this.nextEpoch === INITIAL_EPOCH) {
      return {
        sessionId: this.sessionId,
        sessionEpoch: INITIAL_EPOCH,
        toSend: [...next.values()],
        toForget: [],
        isFull: true,
        sessionPartitions: next,
      };
    }
    const toSend: SessionPartition[] = [];
    const toForget: SessionPartition[] = [];
    for (const [key, previous] of this.sessionPartitions) {
      if (!next.has(key)) toForget.push(previous);
    }
    for (const [key, partition] of next) {
      const previous = this.sessionPartitions.get(key);
      if (previous === undefined || !isSamePartitionData(previous, partition)) {
        toSend.push(partition);
      }
    }
    return {
      sessionId: this.sessionId,
      sessionEpoch: this.nextEpoch,
      toSend,
      toForget,
      isFull: false,
      sessionPartitions: next,
    };
  }

  /**
   * Takes the leader's answer to `request`; false when the answer cannot be trusted for the
   * session (an error, or partitions the session does not hold), so it must not be used.
   */
  handleResponse(
    request: SessionRequest,
    response: {
      readonly errorCode: number;
      readonly sessionId: number;
      readonly partitionKeys: readonly string[];
    },
  ): boolean {
    if (response.errorCode !== ErrorCode.NONE) {
      if (response.errorCode === ErrorCode.FETCH_SESSION_ID_NOT_FOUND) this.forget();
      else this.closeExisting();
      return false;
    }
    const isKnown = response.partitionKeys.every((key) => request.sessionPartitions.has(key));
    if (!isKnown) {
      this.closeExisting();
      return false;
    }
    this.sessionPartitions = new Map(request.sessionPartitions);
    if (request.isFull) {
      this.sessionId = response.sessionId;
      this.nextEpoch = response.sessionId === INVALID_SESSION_ID ? INITIAL_EPOCH : 1;
    } else {
      this.nextEpoch = this.nextEpoch === 0x7fffffff ? 1 : this.nextEpoch + 1;
    }
    return true;
  }

  /** The request got no answer: the next one is full, closing the session the leader may hold. */
  handleError(): void {
    this.closeExisting();
  }

  private closeExisting(): void {
    this.nextEpoch = INITIAL_EPOCH;
    this.sessionPartitions = new Map();
  }

  private forget(): void {
    this.sessionId = INVALID_SESSION_ID;
    this.closeExisting();
  }
}

function isSamePartitionData(a: SessionPartition, b: SessionPartition): boolean {
  return (
    a.fetchOffset === b.fetchOffset &&
    a.logStartOffset === b.logStartOffset &&
    a.partitionMaxBytes === b.partitionMaxBytes &&
    a.currentLeaderEpoch === b.currentLeaderEpoch &&
    a.lastFetchedEpoch === b.lastFetchedEpoch
  );
}
