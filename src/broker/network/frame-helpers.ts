/** Small helpers of the connection's frame queue. */
import { ApiKey } from "../../protocol/index.js";
import type { RequestMemoryPool } from "./request-memory-pool.js";

/** The API key at the start of a request frame, or -1 for a frame too short to hold one. */
export function apiKeyOf(frame: Uint8Array): number {
  return frame.length < 2 ? -1 : ((frame[0] as number) << 8) | (frame[1] as number);
}

/** The requests of the group coordinator, which one connection has handled one at a time. */
const GROUP_APIS: ReadonlySet<number> = new Set([
  ApiKey.OffsetCommit,
  ApiKey.OffsetFetch,
  ApiKey.JoinGroup,
  ApiKey.Heartbeat,
  ApiKey.LeaveGroup,
  ApiKey.SyncGroup,
  ApiKey.DescribeGroups,
  ApiKey.ListGroups,
  ApiKey.DeleteGroups,
  ApiKey.OffsetDelete,
  ApiKey.TxnOffsetCommit,
  ApiKey.ConsumerGroupHeartbeat,
  ApiKey.ConsumerGroupDescribe,
]);

/**
 * The lane of a request whose kind a connection handles one at a time, or undefined. Kafka
 * handles one request of a connection at a time; Sluice handles several, but one Fetch (whose
 * response may be as large as its maxBytes, so that a client pipelining Fetches it never reads
 * costs one response, not a hundred) and one request of the group coordinator, so that what a
 * client sends after a commit or a heartbeat sees its outcome, as with Kafka: a consumer whose
 * assignment changes reads its committed offsets while its last commits are still in flight.
 */
export function serialLaneOf(apiKey: number): "fetch" | "group" | undefined {
  if (apiKey === ApiKey.Fetch) return "fetch";
  return GROUP_APIS.has(apiKey) ? "group" : undefined;
}

/** Releases `bytes` to `pool` on the first call only. */
export function onceReleasing(pool: RequestMemoryPool, bytes: number): () => void {
  let isReleased = false;
  return () => {
    if (isReleased) return;
    isReleased = true;
    pool.release(bytes);
  };
}

const EMPTY_FRAME = new Uint8Array(0);
/** Taken frames at the head of the queue tolerated before the arrays are compacted. */
const FRAMES_COMPACT_AT = 1024;

/**
 * The frames a connection received and has not taken up, in order, each with the time it was
 * read whole (monotonic ms, the start of Kafka's RequestQueueTimeMs).
 */
export class FrameQueue {
  private frames: Uint8Array[] = [];
  private arrivals: number[] = [];
  private head = 0;

  get size(): number {
    return this.frames.length - this.head;
  }

  push(frame: Uint8Array, arrivedMs: number): void {
    this.frames.push(frame);
    this.arrivals.push(arrivedMs);
  }

  /** The oldest frame, which must exist. */
  peek(): Uint8Array {
    return this.frames[this.head] as Uint8Array;
  }

  /** Removes the oldest frame; the queue lets go of it (a view that keeps its chunk alive). */
  take(): { readonly frame: Uint8Array; readonly arrivedMs: number } {
    const frame = this.frames[this.head] as Uint8Array;
    const arrivedMs = this.arrivals[this.head] as number;
    this.frames[this.head] = EMPTY_FRAME;
    this.head++;
    return { frame, arrivedMs };
  }

  compact(): void {
    if (this.head === this.frames.length) this.clear();
    else if (this.head >= FRAMES_COMPACT_AT) {
      this.frames = this.frames.slice(this.head);
      this.arrivals = this.arrivals.slice(this.head);
      this.head = 0;
    }
  }

  /** Empties the queue, returning the byte length of each frame dropped. */
  drop(): number[] {
    const lengths = this.frames.slice(this.head).map((frame) => frame.length);
    this.clear();
    return lengths;
  }

  private clear(): void {
    this.frames = [];
    this.arrivals = [];
    this.head = 0;
  }
}
