/**
 * Striped, rack-aware replica placement in the manner of Kafka's StripedReplicaPlacer: usable
 * brokers (unfenced, not shutting down) are interleaved rack by rack into one ring, so that
 * neighbours on the ring sit in different racks; partition leaders walk the ring one step per
 * partition from a random start, spreading leadership evenly; each partition's followers are
 * taken further along the ring (with a shift that changes every lap, so follower sets differ),
 * preferring racks the partition does not use yet, so every rack is used before any repeats.
 */
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { Random } from "../../ports/index.js";

/** A broker that may receive new replicas, with its rack (null when it has none). */
export interface UsableBroker {
  readonly id: BrokerId;
  readonly rack: string | null;
}

export interface PlacementRequest {
  readonly partitionCount: number;
  readonly replicationFactor: number;
}

/** Brokers that may take new replicas: unfenced and not in controlled shutdown, in id order. */
export function usableBrokers(image: MetadataImage): UsableBroker[] {
  return [...image.cluster.brokers.values()]
    .filter((broker) => !broker.isFenced && !broker.isInControlledShutdown)
    .map((broker) => ({ id: broker.id, rack: broker.rack }))
    .sort((a, b) => a.id - b.id);
}

/**
 * The ring: racks in name order (a broker without a rack is its own rack) rotated by a random
 * amount, each rack's brokers rotated too, then taken one from each rack in turn.
 */
function stripedRing(brokers: readonly UsableBroker[], random: Random): UsableBroker[] {
  const byRack = new Map<string, UsableBroker[]>();
  for (const broker of brokers) {
    const rack = broker.rack ?? `\u0000${broker.id}`;
    const members = byRack.get(rack) ?? [];
    members.push(broker);
    byRack.set(rack, members);
  }
  const racks = rotated([...byRack.keys()].sort(), random).map((rack) =>
    rotated(byRack.get(rack) ?? [], random),
  );
  const ring: UsableBroker[] = [];
  for (let round = 0; ring.length < brokers.length; round += 1) {
    for (const members of racks) {
      const member = members[round];
      if (member !== undefined) ring.push(member);
    }
  }
  return ring;
}

function rotated<T>(items: readonly T[], random: Random): T[] {
  if (items.length <= 1) return [...items];
  const start = random.nextInt(items.length);
  return [...items.slice(start), ...items.slice(0, start)];
}

/**
 * Replica lists for `request.partitionCount` partitions of `request.replicationFactor` replicas,
 * leader first. The caller has checked there are at least replicationFactor usable brokers.
 */
export function placeReplicas(
  brokers: readonly UsableBroker[],
  request: PlacementRequest,
  random: Random,
): BrokerId[][] {
  const ring = stripedRing(brokers, random);
  const start = random.nextInt(ring.length);
  const assignments: BrokerId[][] = [];
  for (let partition = 0; partition < request.partitionCount; partition += 1) {
    const position = (start + partition) % ring.length;
    const lap = Math.floor((start + partition) / ring.length);
    const shift = ring.length > 1 ? lap % (ring.length - 1) : 0;
    assignments.push(replicasAt(ring, position, shift, request.replicationFactor));
  }
  return assignments;
}

/** One partition's replicas: the leader at `position`, then followers along the ring. */
function replicasAt(
  ring: readonly UsableBroker[],
  position: number,
  shift: number,
  replicationFactor: number,
): BrokerId[] {
  const leader = ring[position];
  if (leader === undefined) return [];
  const chosen: UsableBroker[] = [leader];
  const candidates: UsableBroker[] = [];
  for (let step = 0; step < ring.length - 1; step += 1) {
    const candidate = ring[(position + 1 + ((shift + step) % (ring.length - 1))) % ring.length];
    if (candidate !== undefined) candidates.push(candidate);
  }
  const rackOf = (broker: UsableBroker): string => broker.rack ?? `\u0000${broker.id}`;
  while (chosen.length < replicationFactor && candidates.length > 0) {
    const usedRacks = new Set(chosen.map(rackOf));
    const allRacksUsed = candidates.every((candidate) => usedRacks.has(rackOf(candidate)));
    const index = allRacksUsed ? 0 : candidates.findIndex((c) => !usedRacks.has(rackOf(c)));
    const [next] = candidates.splice(index, 1);
    if (next !== undefined) chosen.push(next);
  }
  return chosen.map((broker) => broker.id);
}
