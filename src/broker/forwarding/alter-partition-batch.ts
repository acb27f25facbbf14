/**
 * One AlterPartition request built from the leaders' proposals, and each proposal's answer read
 * back from the response. The proposal and answer shapes are those of src/replication's
 * AlterPartitionSender (declared here structurally until that folder's index.ts exports them).
 */
import { ErrorCode, type BrokerId, type Uuid } from "../../common/index.js";
import type { LeaderRecoveryState } from "../../metadata/index.js";
import type {
  AlterPartitionRequest,
  AlterPartitionResponse,
  MessageInput,
} from "../../protocol/index.js";

/** One partition's AlterPartition proposal, as a leader makes it. */
export interface AlterPartitionProposal {
  readonly topicId: Uuid;
  readonly topicName: string;
  readonly partitionIndex: number;
  readonly leaderEpoch: number;
  readonly newIsrWithEpochs: readonly {
    readonly brokerId: BrokerId;
    readonly brokerEpoch: number;
  }[];
  readonly leaderRecoveryState: LeaderRecoveryState;
  readonly partitionEpoch: number;
}

/** The controller's answer to one proposal. */
export type AlterPartitionAnswer =
  | {
      readonly kind: "updated";
      readonly leaderEpoch: number;
      readonly partitionEpoch: number;
      readonly isr: readonly BrokerId[];
      readonly leaderRecoveryState: LeaderRecoveryState;
    }
  | { readonly kind: "error"; readonly errorCode: number };

/**
 * The request carrying `proposals` at `apiVersion`, grouped by topic in arrival order: topics by
 * name before v2 and by id from v2, the ISR as broker ids before v3 and with each member's broker
 * epoch from v3 (KIP-903), the leader recovery state from v1 (KIP-704), as Kafka sends them.
 */
export function alterPartitionRequest(
  sender: { readonly brokerId: number; readonly brokerEpoch: number },
  proposals: readonly AlterPartitionProposal[],
  apiVersion: number,
): MessageInput<AlterPartitionRequest> {
  const topics = new Map<Uuid, { topicId?: Uuid; topicName?: string; partitions: object[] }>();
  for (const proposal of proposals) {
    let topic = topics.get(proposal.topicId);
    if (topic === undefined) {
      topic =
        apiVersion >= 2
          ? { topicId: proposal.topicId, partitions: [] }
          : { topicName: proposal.topicName, partitions: [] };
      topics.set(proposal.topicId, topic);
    }
    const isr =
      apiVersion >= 3
        ? {
            newIsrWithEpochs: proposal.newIsrWithEpochs.map(({ brokerId, brokerEpoch }) => ({
              brokerId,
              brokerEpoch,
            })),
          }
        : { newIsr: proposal.newIsrWithEpochs.map((member) => member.brokerId) };
    const isRecovering = proposal.leaderRecoveryState === "recovering";
    topic.partitions.push({
      partitionIndex: proposal.partitionIndex,
      leaderEpoch: proposal.leaderEpoch,
      ...isr,
      ...(apiVersion >= 1 ? { leaderRecoveryState: isRecovering ? 1 : 0 } : {}),
      partitionEpoch: proposal.partitionEpoch,
    });
  }
  return {
    brokerId: sender.brokerId,
    brokerEpoch: sender.brokerEpoch,
    topics: [...topics.values()],
  };
}

/**
 * The answer to each proposal, in order. A top-level error answers every proposal with it; a
 * partition the response leaves out is answered UNKNOWN_SERVER_ERROR, so its leader retries.
 * Topics are matched by id (versions 2+) or by name (versions 0-1).
 */
export function alterPartitionAnswers(
  response: AlterPartitionResponse,
  proposals: readonly AlterPartitionProposal[],
): AlterPartitionAnswer[] {
  if (response.errorCode !== ErrorCode.NONE) {
    return proposals.map(() => ({ kind: "error", errorCode: response.errorCode }));
  }
  return proposals.map((proposal) => {
    const topic = response.topics.find(
      (candidate) =>
        candidate.topicId === proposal.topicId || candidate.topicName === proposal.topicName,
    );
    const partition = topic?.partitions.find(
      (candidate) => candidate.partitionIndex === proposal.partitionIndex,
    );
    if (partition === undefined)
      return { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
    if (partition.errorCode !== ErrorCode.NONE) {
      return { kind: "error", errorCode: partition.errorCode };
    }
    return {
      kind: "updated",
      leaderEpoch: partition.leaderEpoch,
      partitionEpoch: partition.partitionEpoch,
      isr: partition.isr as BrokerId[],
      leaderRecoveryState: partition.leaderRecoveryState === 1 ? "recovering" : "recovered",
    };
  });
}
