/**
 * When a reassignment may finish, as Kafka's PartitionReassignmentReplicas decides it: once the
 * ISR, without the replicas being removed, still has a member and holds every replica that
 * stays, the removing replicas leave both lists and the reassignment is over.
 */
import type { BrokerId } from "../../common/index.js";
import { containsAllReplicas, withoutReplicas } from "./replica-lists.js";

/** A partition's replica lists during a reassignment. */
export interface ReassignmentState {
  readonly isr: readonly BrokerId[];
  readonly replicas: readonly BrokerId[];
  readonly removing: readonly BrokerId[];
  readonly adding: readonly BrokerId[];
}

/** True when replicas are being added or removed. */
export function isReassignmentInProgress(state: {
  readonly removingReplicas: readonly BrokerId[];
  readonly addingReplicas: readonly BrokerId[];
}): boolean {
  return state.removingReplicas.length > 0 || state.addingReplicas.length > 0;
}

/** The ISR and replicas once the reassignment completes, or undefined while it cannot. */
export function completedReassignment(
  state: ReassignmentState,
): { isr: BrokerId[]; replicas: BrokerId[] } | undefined {
  if (state.removing.length === 0 && state.adding.length === 0) return undefined;
  const isr = withoutReplicas(state.isr, state.removing);
  const replicas = withoutReplicas(state.replicas, state.removing);
  if (isr.length === 0 || replicas.length === 0) return undefined;
  return containsAllReplicas(isr, replicas) ? { isr, replicas } : undefined;
}
