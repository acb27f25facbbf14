/**
 * Small operations on replica lists (broker ids in a meaningful order): the order of `replicas`
 * is the preference order, so every helper here keeps the order of its first argument.
 */
import type { BrokerId } from "../../common/index.js";

/** `replicas` without any of `removed`, in the order of `replicas`. */
export function withoutReplicas(
  replicas: readonly BrokerId[],
  removed: readonly BrokerId[],
): BrokerId[] {
  return replicas.filter((replica) => !removed.includes(replica));
}

/** True when both lists hold the same ids in the same order. */
export function sameReplicas(left: readonly BrokerId[], right: readonly BrokerId[]): boolean {
  return left.length === right.length && left.every((replica, index) => replica === right[index]);
}

/** True when every id of `required` is in `replicas`, in any order. */
export function containsAllReplicas(
  replicas: readonly BrokerId[],
  required: readonly BrokerId[],
): boolean {
  return required.every((replica) => replicas.includes(replica));
}

/** The ids of either list once each, sorted ascending, so that derived sets are deterministic. */
export function sortedUnion(left: readonly BrokerId[], right: readonly BrokerId[]): BrokerId[] {
  return [...new Set([...left, ...right])].sort((a, b) => a - b);
}

export function hasDuplicateReplicas(replicas: readonly BrokerId[]): boolean {
  return new Set(replicas).size !== replicas.length;
}
