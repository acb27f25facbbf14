/**
 * A member of a consumer group (KIP-848): what its heartbeats told the coordinator (client,
 * subscription, assignor, rebalance timeout), its reconciliation progress and its timers.
 * Fields a heartbeat leaves out (null, or -1 for the rebalance timeout) keep their value.
 */
import type { ConsumerHeartbeat, ConsumerMemberDescription } from "./consumer-group-messages.js";
import type { PersistedMember } from "./consumer-group-records.js";
import {
  EMPTY_ASSIGNMENT,
  reconcile,
  type Assignment,
  type ReconcileInput,
  type Reconciliation,
} from "./current-assignment.js";

export class ConsumerMember {
  clientId = "";
  clientHost = "";
  rackId: string | null = null;
  /** Set once by the heartbeat that made a static member. */
  instanceId: string | null = null;
  rebalanceTimeoutMs = 0;
  serverAssignor: string | null = null;
  subscribedTopicNames: readonly string[] = [];
  /** The member's regular expression subscription (v1 of the heartbeat), or null. */
  subscribedTopicRegex: string | null = null;
  sessionDeadlineMs = 0;
  /** Set while the member must revoke partitions: it is fenced if still in that epoch then. */
  rebalanceDeadline: { readonly atMs: number; readonly memberEpoch: number } | null = null;
  private reconciliationValue: Reconciliation = {
    state: "stable",
    memberEpoch: 0,
    previousMemberEpoch: -1,
    assigned: EMPTY_ASSIGNMENT,
    pendingRevocation: EMPTY_ASSIGNMENT,
  };

  constructor(readonly memberId: string) {}

  /** A member as the log holds it (its target assignment is the group's). */
  static restore(persisted: PersistedMember): ConsumerMember {
    const member = new ConsumerMember(persisted.memberId);
    member.clientId = persisted.clientId;
    member.clientHost = persisted.clientHost;
    member.rackId = persisted.rackId;
    member.instanceId = persisted.instanceId;
    member.rebalanceTimeoutMs = persisted.rebalanceTimeoutMs;
    member.serverAssignor = persisted.serverAssignor;
    member.subscribedTopicNames = [...persisted.subscribedTopicNames].sort();
    member.subscribedTopicRegex = persisted.subscribedTopicRegex;
    member.reconciliationValue = persisted.reconciliation;
    return member;
  }

  /** The member as its records hold it, with the group's target for it. */
  persisted(target: Assignment): PersistedMember {
    return {
      memberId: this.memberId,
      rackId: this.rackId,
      instanceId: this.instanceId,
      clientId: this.clientId,
      clientHost: this.clientHost,
      subscribedTopicNames: this.subscribedTopicNames,
      subscribedTopicRegex: this.subscribedTopicRegex,
      rebalanceTimeoutMs: this.rebalanceTimeoutMs,
      serverAssignor: this.serverAssignor,
      target,
      reconciliation: this.reconciliationValue,
    };
  }

  get reconciliation(): Reconciliation {
    return this.reconciliationValue;
  }

  isReconciledTo(assignmentEpoch: number): boolean {
    const { state, memberEpoch } = this.reconciliationValue;
    return state === "stable" && memberEpoch === assignmentEpoch;
  }

  /** Takes what a heartbeat sent; whether the subscription or the assignor changed. */
  update(request: ConsumerHeartbeat): boolean {
    this.clientId = request.clientId;
    this.clientHost = request.clientHost;
    if (request.rackId !== null) this.rackId = request.rackId;
    if (request.instanceId !== null) this.instanceId = request.instanceId;
    if (request.rebalanceTimeoutMs !== -1) this.rebalanceTimeoutMs = request.rebalanceTimeoutMs;
    let hasChanged = false;
    if (request.subscribedTopicNames !== null) {
      const names = [...new Set(request.subscribedTopicNames)].sort();
      hasChanged = names.join("\u0000") !== this.subscribedTopicNames.join("\u0000");
      this.subscribedTopicNames = names;
    }
    if (request.subscribedTopicRegex !== null) {
      // An empty regex clears it, as Kafka's member update reads it.
      const regex = request.subscribedTopicRegex === "" ? null : request.subscribedTopicRegex;
      if (regex !== this.subscribedTopicRegex) hasChanged = true;
      this.subscribedTopicRegex = regex;
    }
    if (request.serverAssignor !== null && request.serverAssignor !== this.serverAssignor) {
      this.serverAssignor = request.serverAssignor;
      hasChanged = true;
    }
    return hasChanged;
  }

  /**
   * The member that takes this static member's place under a new member id (Kafka's
   * rejoining static member): the same subscription and assignment, at member epoch 0.
   */
  replacedBy(memberId: string): ConsumerMember {
    const replacement = ConsumerMember.restore({
      ...this.persisted(EMPTY_ASSIGNMENT),
      memberId,
      reconciliation: { ...this.reconciliationValue, memberEpoch: 0, previousMemberEpoch: 0 },
    });
    replacement.sessionDeadlineMs = this.sessionDeadlineMs;
    return replacement;
  }

  /** A static member's temporary leave (epoch -2): it keeps its assignment, revokes nothing. */
  leaveTemporarily(memberEpoch: number): void {
    const { reconciliationValue } = this;
    this.reconciliationValue = {
      ...reconciliationValue,
      memberEpoch,
      pendingRevocation: EMPTY_ASSIGNMENT,
    };
    this.rebalanceDeadline = null;
  }

  /** One reconciliation step towards the target; whether anything changed. */
  reconcile(input: ReconcileInput): boolean {
    const next = reconcile(this.reconciliationValue, input);
    if (next === this.reconciliationValue) return false;
    this.reconciliationValue = next;
    return true;
  }

  describe(targetAssignment: Assignment): ConsumerMemberDescription {
    return {
      memberId: this.memberId,
      instanceId: this.instanceId,
      rackId: this.rackId,
      memberEpoch: this.reconciliationValue.memberEpoch,
      clientId: this.clientId,
      clientHost: this.clientHost,
      subscribedTopicNames: this.subscribedTopicNames,
      subscribedTopicRegex: this.subscribedTopicRegex,
      assignment: this.reconciliationValue.assigned,
      targetAssignment,
      state: this.reconciliationValue.state,
    };
  }
}
