/**
 * The states of a classic group and the transitions between them (classic-group.ts lists them),
 * its members as it changes them, and what it asks its owner to do. Pure types.
 */
import type { PersistedClassicGroup } from "./classic-group-records.js";
import type { GroupMember } from "./group-member.js";
import type { GroupDelivery } from "./group-messages.js";

/** Kafka's ClassicGroupState; classic-group.ts lists the transitions. */
export type GroupState = "Empty" | "PreparingRebalance" | "CompletingRebalance" | "Stable" | "Dead";

/** The states each state may be entered from (Kafka's validPreviousStates). */
export const PREVIOUS_STATES: Readonly<Record<GroupState, readonly GroupState[]>> = {
  Empty: ["PreparingRebalance"],
  PreparingRebalance: ["Empty", "CompletingRebalance", "Stable"],
  CompletingRebalance: ["PreparingRebalance"],
  Stable: ["CompletingRebalance"],
  Dead: ["Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"],
};

export type Member = { -readonly [Key in keyof GroupMember]: GroupMember[Key] };

/** What a group asks its owner to do: deliver answers, and wake it at deadlines. */
export interface GroupEffects {
  deliver(delivery: GroupDelivery): void;
  /** Calls the group's `onDeadline` at `atMs` (the owner keeps one heap for all groups). */
  scheduleDeadline(atMs: number): void;
  /** Writes the group's record; a completed rebalance waits for `onAssignmentStored`. */
  store(group: PersistedClassicGroup): void;
}

/** How the write of a group's record of one generation ended: NONE once durable, or its error. */
export interface StoredRecord {
  readonly generationId: number;
  readonly errorCode: number;
}
