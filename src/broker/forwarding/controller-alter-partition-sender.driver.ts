/**
 * src/replication's AlterPartitionSender on the controller channel (Kafka's
 * DefaultAlterPartitionManager): proposals that arrive while a request is in flight wait and go
 * out together in the next request, so a broker has at most one AlterPartition request in flight.
 * A second proposal for a partition whose proposal has not been sent yet is refused with
 * OPERATION_NOT_ATTEMPTED, as Kafka refuses it: the leader holds one change at a time anyway.
 */
import { ErrorCode } from "../../common/index.js";
import { alterPartition } from "../../protocol/index.js";
import type { ControllerChannel } from "./controller-channel.driver.js";
import {
  alterPartitionAnswers,
  alterPartitionRequest,
  type AlterPartitionAnswer,
  type AlterPartitionProposal,
} from "./alter-partition-batch.js";

/** The broker's id and epoch, read when a request is sent (-1 before registration). */
export type BrokerEpochSource = () => { readonly brokerId: number; readonly brokerEpoch: number };

interface Waiting {
  readonly proposal: AlterPartitionProposal;
  readonly resolve: (answer: AlterPartitionAnswer) => void;
}

/** Sends leaders' ISR proposals to the active controller, batched; see the file comment. */
export class ControllerAlterPartitionSender {
  private readonly unsent = new Map<string, Waiting>();
  private isInFlight = false;

  constructor(
    private readonly channel: ControllerChannel,
    private readonly brokerEpoch: BrokerEpochSource,
    private readonly options: { readonly requestTimeoutMs: number },
  ) {}

  /** Resolves to the controller's answer; a lost or timed-out request is an error answer. */
  submit(proposal: AlterPartitionProposal): Promise<AlterPartitionAnswer> {
    const key = `${proposal.topicId}:${proposal.partitionIndex}`;
    if (this.unsent.has(key)) {
      return Promise.resolve({ kind: "error", errorCode: ErrorCode.OPERATION_NOT_ATTEMPTED });
    }
    return new Promise((resolve) => {
      this.unsent.set(key, { proposal, resolve });
      if (!this.isInFlight) void this.sendWaiting();
    });
  }

  private async sendWaiting(): Promise<void> {
    while (this.unsent.size > 0) {
      const batch = [...this.unsent.values()];
      this.unsent.clear();
      this.isInFlight = true;
      const proposals = batch.map((waiting) => waiting.proposal);
      const sender = this.brokerEpoch();
      const body = (apiVersion: number) => alterPartitionRequest(sender, proposals, apiVersion);
      const result = await this.channel.send(alterPartition, body, {
        timeoutMs: this.options.requestTimeoutMs,
      });
      this.isInFlight = false;
      const answers: readonly AlterPartitionAnswer[] =
        result.kind === "response"
          ? alterPartitionAnswers(result.body, proposals)
          : proposals.map(() => ({ kind: "error", errorCode: result.errorCode }));
      batch.forEach((waiting, index) => {
        const answer = answers[index] ?? {
          kind: "error",
          errorCode: ErrorCode.UNKNOWN_SERVER_ERROR,
        };
        waiting.resolve(answer);
      });
    }
  }
}
