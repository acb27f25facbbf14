/**
 * What the simulated clients did and saw, as a history of events: each produce is invoked, then
 * ends ok (with the offset the leader gave), fail (a refusal that means nothing was written) or
 * info (no answer, or an answer that leaves it open whether the record was written); each read
 * observes records at offsets below the high watermark; each committed group offset is
 * acknowledged and read back. The checker judges the cluster from
 * this history and the final reads alone. Imports nothing of src/.
 */

/** One partition of one topic, as "topic/partition". */
export type PartitionKey = string;

export function partitionKey(topic: string, partition: number): PartitionKey {
  return `${topic}/${partition}`;
}

export type Acks = 0 | 1 | -1;

export type HistoryEvent =
  | {
      readonly kind: "invoke";
      readonly client: string;
      readonly partition: PartitionKey;
      readonly value: string;
      readonly acks: Acks;
      readonly atMs: number;
    }
  | {
      readonly kind: "ok";
      readonly client: string;
      readonly value: string;
      readonly offset: number;
      readonly atMs: number;
    }
  | {
      readonly kind: "fail" | "info";
      readonly client: string;
      readonly value: string;
      readonly reason: string;
      readonly atMs: number;
    }
  | {
      readonly kind: "metadata";
      readonly client: string;
      /** The node that answered. */
      readonly nodeId: number;
      /** The brokers the answer listed: the live ones, never a fenced broker. */
      readonly brokers: readonly number[];
      readonly partitions: readonly {
        readonly partition: PartitionKey;
        readonly leader: number;
        readonly leaderEpoch: number;
        readonly isr: readonly number[];
      }[];
      readonly atMs: number;
    }
  | {
      /** An acknowledged OffsetCommit of `offset` for `group` (one partition per group). */
      readonly kind: "commit" | "offset";
      readonly client: string;
      readonly group: string;
      readonly offset: number;
      /** When the request was sent (for "offset", the read); `atMs` is when it was answered. */
      readonly invokedAtMs: number;
      readonly atMs: number;
    }
  | {
      readonly kind: "read";
      readonly client: string;
      readonly partition: PartitionKey;
      readonly records: readonly ReadRecord[];
      readonly highWatermark: number;
      readonly atMs: number;
    };

/** A record as a reader saw it. */
export interface ReadRecord {
  readonly offset: number;
  readonly value: string;
}

/** The history of one seed, appended to by every client in simulated-time order. */
export class History {
  readonly events: HistoryEvent[] = [];

  record(event: HistoryEvent): void {
    this.events.push(event);
  }

  /** Records that `client` was told `value` is at `offset`. */
  acknowledged(client: string, value: string, offset: number, atMs: number): void {
    this.record({ kind: "ok", client, value, offset, atMs });
  }

  get length(): number {
    return this.events.length;
  }

  /** How many produce calls ended ok, with acks=all, so far. */
  acknowledgedCount(): number {
    const acksOf = new Map<string, Acks>();
    let count = 0;
    for (const event of this.events) {
      if (event.kind === "invoke") acksOf.set(event.value, event.acks);
      if (event.kind === "ok" && acksOf.get(event.value) === -1) count += 1;
    }
    return count;
  }
}
