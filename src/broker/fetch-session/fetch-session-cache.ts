/**
 * The incremental fetch session cache of KIP-227 (Kafka's FetchSessionCache): sessions by id,
 * each with the partitions its fetcher follows and the epoch its next request must carry. The
 * cache holds at most `max.incremental.fetch.session.cache.slots` sessions; when full, a new
 * session may take the place of one unused for `evictionMs`, else of one that ranks below it
 * (followers above consumers, then more partitions above fewer), else it is not created and the
 * fetcher goes on with full fetches.
 */
import { assert } from "../../common/index.js";
import type { Random } from "../../ports/index.js";

/** Kafka's default `max.incremental.fetch.session.cache.slots`. */
export const FETCH_SESSION_CACHE_SLOTS_DEFAULT = 1000;
/** Kafka's minimum idle time before a session may be evicted for any newcomer (120 s). */
export const FETCH_SESSION_EVICTION_MS_DEFAULT = 120_000;

/** One partition a session follows: what its fetcher last asked and what it was last told. */
export interface CachedPartition {
  readonly topicId: string;
  readonly partition: number;
  fetchOffset: number;
  partitionMaxBytes: number;
  currentLeaderEpoch: number;
  lastFetchedEpoch: number;
  logStartOffset: number;
  /** The values of the last response that carried the partition (-1 before any). */
  highWatermark: number;
  lastStableOffset: number;
  responseLogStartOffset: number;
  /** The topic name the fetcher sent (before v13), or "" when it uses topic ids. */
  topicName: string;
}

/**
 * One session. `epoch` is the epoch the next incremental request must carry; it starts at 1
 * after the full request that created the session and wraps from 2^31-1 to 1, as in Kafka.
 */
export class FetchSession {
  epoch = 1;
  /** Partitions in response order: one that was answered moves to the end (round robin). */
  readonly partitions = new Map<string, CachedPartition>();

  constructor(
    readonly id: number,
    readonly isPrivileged: boolean,
    readonly usesTopicIds: boolean,
    readonly createdMs: number,
    public lastUsedMs: number,
  ) {}

  /** Moves to the next epoch after an incremental request was accepted. */
  advanceEpoch(): void {
    this.epoch = this.epoch === 0x7fffffff ? 1 : this.epoch + 1;
  }
}

/** Options of a cache. */
export interface FetchSessionCacheOptions {
  readonly maxSlots?: number;
  readonly evictionMs?: number;
  /** Draws session ids. */
  readonly random: Random;
}

/** The sessions of one broker, with the bound and eviction rules of KIP-227. */
export class FetchSessionCache {
  readonly maxSlots: number;
  readonly evictionMs: number;
  private readonly sessions = new Map<number, FetchSession>();
  private evictions = 0;

  constructor(private readonly options: FetchSessionCacheOptions) {
    this.maxSlots = options.maxSlots ?? FETCH_SESSION_CACHE_SLOTS_DEFAULT;
    this.evictionMs = options.evictionMs ?? FETCH_SESSION_EVICTION_MS_DEFAULT;
    assert(Number.isInteger(this.maxSlots) && this.maxSlots >= 0, "slots are a count");
  }

  /** How many sessions are cached. */
  get size(): number {
    return this.sessions.size;
  }

  /** How many sessions were evicted to make room for others. */
  get evictionCount(): number {
    return this.evictions;
  }

  /** The session `sessionId`, or undefined. */
  get(sessionId: number): FetchSession | undefined {
    return this.sessions.get(sessionId);
  }

  /** Drops a session (a fetcher's final request, or a full request replacing it). */
  remove(sessionId: number): boolean {
    return this.sessions.delete(sessionId);
  }

  /**
   * Creates a session for a full fetch when a slot is free or can be freed; undefined when the
   * cache keeps its sessions, and the fetcher then gets session id 0.
   */
  maybeCreate(
    partitions: readonly CachedPartition[],
    options: { readonly isPrivileged: boolean; readonly usesTopicIds: boolean; nowMs: number },
  ): FetchSession | undefined {
    const rank = { isPrivileged: options.isPrivileged, size: partitions.length };
    if (this.sessions.size >= this.maxSlots && !this.maybeEvictFor(rank, options.nowMs)) {
      return undefined;
    }
    const { isPrivileged, usesTopicIds, nowMs } = options;
    const session = new FetchSession(this.newId(), isPrivileged, usesTopicIds, nowMs, nowMs);
    for (const partition of partitions) session.partitions.set(cachedKey(partition), partition);
    this.sessions.set(session.id, session);
    return session;
  }

  /**
   * Frees one slot: the least recently used session when it has been idle for `evictionMs`,
   * else the lowest-ranked session when it ranks strictly below the newcomer.
   */
  private maybeEvictFor(
    newcomer: { readonly isPrivileged: boolean; readonly size: number },
    nowMs: number,
  ): boolean {
    let leastRecent: FetchSession | undefined;
    let lowest: FetchSession | undefined;
    for (const session of this.sessions.values()) {
      if (leastRecent === undefined || session.lastUsedMs < leastRecent.lastUsedMs) {
        leastRecent = session;
      }
      if (lowest === undefined || compareRank(session, lowest) < 0) lowest = session;
    }
    let victim: FetchSession | undefined;
    if (leastRecent !== undefined && leastRecent.lastUsedMs + this.evictionMs < nowMs) {
      victim = leastRecent;
    } else if (lowest !== undefined && rankBelow(lowest, newcomer)) {
      victim = lowest;
    }
    if (victim === undefined) return false;
    this.sessions.delete(victim.id);
    this.evictions++;
    return true;
  }

  /** A positive int32 id not in use; 0 means "no session" on the wire. */
  private newId(): number {
    for (;;) {
      const id = this.options.random.nextInt(0x7fffffff) + 1;
      if (!this.sessions.has(id)) return id;
    }
  }
}

/** The key of a cached partition: its topic id (v13+) or name, and its index. */
export function cachedKey(partition: {
  readonly topicId: string;
  readonly topicName: string;
  readonly partition: number;
}): string {
  return `${partition.topicId}/${partition.topicName}/${partition.partition}`;
}

/** Kafka's eviction order: consumers before followers, then fewer partitions, older, lower id. */
function compareRank(left: FetchSession, right: FetchSession): number {
  if (left.isPrivileged !== right.isPrivileged) return left.isPrivileged ? 1 : -1;
  if (left.partitions.size !== right.partitions.size) {
    return left.partitions.size - right.partitions.size;
  }
  if (left.lastUsedMs !== right.lastUsedMs) return left.lastUsedMs - right.lastUsedMs;
  return left.id - right.id;
}

function rankBelow(
  session: FetchSession,
  newcomer: { readonly isPrivileged: boolean; readonly size: number },
): boolean {
  if (session.isPrivileged !== newcomer.isPrivileged) return newcomer.isPrivileged;
  return session.partitions.size < newcomer.size;
}
