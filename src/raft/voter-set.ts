/**
 * The set of voters of the quorum (KIP-853): each voter's key, listeners and supported
 * kraft.version range. Immutable: changes return a new set, so the history of sets can share
 * them. Majorities are counted over voter ids, one vote per voter.
 */
import { assert, ZERO_UUID, type Uuid } from "../common/index.js";
import type { MessageInput, VotersRecord } from "../protocol/index.js";
import type { ConfiguredVoter } from "./config.js";
import { sameReplica, type Endpoint, type ReplicaKey } from "./types.js";

export interface Voter {
  readonly key: ReplicaKey;
  readonly endpoints: readonly Endpoint[];
  readonly kraftVersionMin: number;
  readonly kraftVersionMax: number;
}

/** The kraft.version range a voter of ours supports: 0 (static) and 1 (dynamic voters). */
export const SUPPORTED_KRAFT_VERSIONS = { min: 0, max: 1 } as const;

/** An immutable voter set. */
export class VoterSet {
  private readonly byId: ReadonlyMap<number, Voter>;

  private constructor(voters: readonly Voter[]) {
    const byId = new Map<number, Voter>();
    for (const voter of voters) {
      assert(!byId.has(voter.key.id), "a voter set holds each id once");
      byId.set(voter.key.id, voter);
    }
    this.byId = byId;
  }

  /** A set from configured voters (`controller.quorum.voters` or a bootstrap checkpoint). */
  static fromConfigured(voters: readonly ConfiguredVoter[]): VoterSet {
    return new VoterSet(
      voters.map((voter) => ({
        key: { id: voter.id, directoryId: voter.directoryId },
        endpoints: voter.endpoints,
        kraftVersionMin: SUPPORTED_KRAFT_VERSIONS.min,
        kraftVersionMax: SUPPORTED_KRAFT_VERSIONS.max,
      })),
    );
  }

  static fromVotersRecord(record: VotersRecord): VoterSet {
    return new VoterSet(
      record.voters.map((voter) => ({
        key: { id: voter.voterId, directoryId: directoryOrNull(voter.voterDirectoryId) },
        endpoints: voter.endpoints.map(({ name, host, port }) => ({ name, host, port })),
        kraftVersionMin: voter.kRaftVersionFeature.minSupportedVersion,
        kraftVersionMax: voter.kRaftVersionFeature.maxSupportedVersion,
      })),
    );
  }

  /** The VotersRecord (version 0) that describes this set. */
  toVotersRecord(): MessageInput<VotersRecord> {
    return {
      version: 0,
      voters: this.voters().map((voter) => ({
        voterId: voter.key.id,
        voterDirectoryId: voter.key.directoryId ?? ZERO_UUID,
        endpoints: voter.endpoints.map(({ name, host, port }) => ({ name, host, port })),
        kRaftVersionFeature: {
          minSupportedVersion: voter.kraftVersionMin,
          maxSupportedVersion: voter.kraftVersionMax,
        },
      })),
    };
  }

  /** The voters ordered by id. */
  voters(): Voter[] {
    return [...this.byId.values()].sort((left, right) => left.key.id - right.key.id);
  }

  /** The voter ids in ascending order. */
  ids(): number[] {
    return this.voters().map((voter) => voter.key.id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The voter with this id, whatever its directory. */
  voter(id: number): Voter | undefined {
    return this.byId.get(id);
  }

  /** True when the replica is a voter: same id, and same directory where both are known. */
  isVoter(key: ReplicaKey): boolean {
    const voter = this.byId.get(key.id);
    return voter !== undefined && sameReplica(voter.key, key);
  }

  /** True when the replica is the one and only voter. */
  isOnlyVoter(key: ReplicaKey): boolean {
    return this.byId.size === 1 && this.isVoter(key);
  }

  /** The smallest number of voters that forms a majority. */
  majoritySize(): number {
    return Math.floor(this.byId.size / 2) + 1;
  }

  /** True when the given voter ids (others ignored) form a majority of this set. */
  isMajority(ids: Iterable<number>): boolean {
    let count = 0;
    for (const id of new Set(ids)) if (this.byId.has(id)) count++;
    return count >= this.majoritySize();
  }

  /** This set with one more voter; the id must be new. */
  withVoter(voter: Voter): VoterSet {
    assert(!this.byId.has(voter.key.id), "an added voter is not yet a voter");
    return new VoterSet([...this.byId.values(), voter]);
  }

  /** This set without the voter; it must be a voter and not the last one. */
  withoutVoter(key: ReplicaKey): VoterSet {
    assert(this.isVoter(key), "a removed voter is a voter");
    assert(this.byId.size > 1, "the last voter cannot be removed");
    return new VoterSet([...this.byId.values()].filter((voter) => voter.key.id !== key.id));
  }

  /** This set with a voter's endpoints and supported versions replaced. */
  withUpdatedVoter(voter: Voter): VoterSet {
    assert(this.isVoter(voter.key), "an updated voter is a voter");
    const others = [...this.byId.values()].filter((old) => old.key.id !== voter.key.id);
    return new VoterSet([...others, voter]);
  }

  /** True when both sets hold the same voters with the same keys and endpoints. */
  equals(other: VoterSet): boolean {
    return JSON.stringify(this.voters()) === JSON.stringify(other.voters());
  }
}

/** The protocol writes an unknown directory id as the zero UUID. */
export function directoryOrNull(directoryId: string): Uuid | null {
  return directoryId === ZERO_UUID ? null : (directoryId as Uuid);
}
