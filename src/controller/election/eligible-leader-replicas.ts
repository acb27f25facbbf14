/**
 * KIP-966 eligible leader replicas, as Kafka's PartitionChangeBuilder keeps them. When the ISR
 * shrinks below the effective min ISR, the replicas that were in the ISR stay eligible to lead
 * (the ELR): under the strict min-ISR rule the high watermark cannot have moved past what they
 * hold. A replica that shut down uncleanly may have lost unflushed data and leaves the ELR. When
 * the ISR is back at min ISR, the ELR empties. `lastKnownElr` holds the last leader of a
 * partition whose ISR became empty, for balanced recovery.
 */
import type { BrokerId } from "../../common/index.js";
import { NO_LEADER } from "../../metadata/index.js";
import type { PartitionRegistration } from "../../metadata/index.js";
import { sortedUnion, withoutReplicas } from "./replica-lists.js";

/**
 * The ELR after the ISR becomes `targetIsr`: empty once the ISR reaches `minIsr`, otherwise the
 * current ELR plus the current ISR, less the target ISR and any replica that shut down
 * uncleanly. Sorted, where Kafka leaves the order to a hash set.
 */
export function targetEligibleLeaderReplicas(options: {
  partition: PartitionRegistration;
  targetIsr: readonly BrokerId[];
  currentElr: readonly BrokerId[];
  minIsr: number;
  uncleanShutdownReplicas: readonly BrokerId[];
}): BrokerId[] {
  const { partition, targetIsr, currentElr, minIsr, uncleanShutdownReplicas } = options;
  if (targetIsr.length >= minIsr) return [];
  const candidates = sortedUnion(currentElr, partition.isr);
  return withoutReplicas(withoutReplicas(candidates, targetIsr), uncleanShutdownReplicas);
}

/**
 * The record's new lastKnownElr, or null for no change, given the record's final leader and ISR
 * fields. The first time a partition's ISR becomes empty, its leader until then is remembered;
 * once the partition has a leader again, the memory is cleared. We only remember a real leader:
 * Kafka would write [-1] for a partition that was already leaderless.
 */
export function lastKnownLeaderChange(
  partition: PartitionRegistration,
  record: { readonly leader: number; readonly isr: readonly number[] | null },
): BrokerId[] | null {
  const known = partition.lastKnownElr;
  const isIsrEmptied = record.isr !== null && record.isr.length === 0;
  if (isIsrEmptied && partition.leader !== NO_LEADER) {
    const isRemembered = known.length === 1 && known[0] === partition.leader;
    return isRemembered ? null : [partition.leader];
  }
  const willHaveLeader =
    record.leader >= 0 || (partition.leader !== NO_LEADER && record.leader !== NO_LEADER);
  return willHaveLeader && known.length > 0 ? [] : null;
}
