/**
 * The replica lists of a reassignment, as Kafka's PartitionReassignmentReplicas and
 * PartitionReassignmentRevert compute them. Starting: the replicas become the target followed
 * by the replicas being removed, `adding` is target minus current and `removing` is current
 * minus target (both sorted). Cancelling: the replicas being added leave the replicas and the
 * ISR; if that would empty the ISR, the first remaining replica becomes the ISR, which is an
 * unclean election and needs the topic's consent.
 */
import type { BrokerId } from "../../common/index.js";
import type { PartitionRegistration } from "../../metadata/index.js";
import { withoutReplicas } from "../election/index.js";

/** The lists a new reassignment starts with. */
export interface ReassignmentPlan {
  readonly replicas: BrokerId[];
  readonly adding: BrokerId[];
  readonly removing: BrokerId[];
}

/** The lists after cancelling a reassignment. */
export interface ReassignmentRevert {
  readonly replicas: BrokerId[];
  readonly isr: BrokerId[];
  /** True when no replica of the ISR survives the revert and one is forced in. */
  readonly isUnclean: boolean;
}

function sortedDifference(left: readonly BrokerId[], right: readonly BrokerId[]): BrokerId[] {
  return withoutReplicas([...new Set(left)], right).sort((a, b) => a - b);
}

export function reassignmentPlan(
  current: readonly BrokerId[],
  target: readonly BrokerId[],
): ReassignmentPlan {
  const removing = sortedDifference(current, target);
  const adding = sortedDifference(target, current);
  return { replicas: [...target, ...removing], adding, removing };
}

/** The revert of `partition`'s ongoing reassignment, or undefined when no replica would remain. */
export function reassignmentRevert(
  partition: PartitionRegistration,
): ReassignmentRevert | undefined {
  const replicas = withoutReplicas(partition.replicas, partition.addingReplicas);
  const isr = withoutReplicas(partition.isr, partition.addingReplicas);
  if (isr.length > 0) return { replicas, isr, isUnclean: false };
  const [first] = replicas;
  if (first === undefined) return undefined;
  return { replicas, isr: [first], isUnclean: true };
}
