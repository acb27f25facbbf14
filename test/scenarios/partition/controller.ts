/**
 * The controller of the partition scenarios, played by the script. It keeps the metadata log as
 * batches of real records (TopicRecord, PartitionRecord, PartitionChangeRecord, ...) and the
 * image they make; the brokers catch up with it as their loaders would. The leaders' AlterPartition
 * proposals wait here until the script answers them: `ok` hands one to the controller's real
 * AlterPartition control (which applies it, or refuses it as Kafka's controller would), an error
 * code answers it without the controller (a lost or refused request).
 */
import assert from "node:assert/strict";
import { errorName, type BrokerId } from "../../../src/common/index.js";
import {
  alterPartitionAnswers,
  alterPartitionRequest,
  type AlterPartitionAnswer,
} from "../../../src/broker/forwarding/alter-partition-batch.js";
import {
  alterPartition,
  bootstrapRecords,
  ELIGIBLE_LEADER_REPLICAS_FEATURE,
} from "../../../src/controller/index.js";
import {
  EMPTY_IMAGE,
  MetadataDelta,
  type MetadataImage,
  type PartitionRegistration,
} from "../../../src/metadata/index.js";
import type { MetadataRecord } from "../../../src/protocol/index.js";
import { registerBroker } from "../../../src/metadata/records.test-support.js";
import {
  alterPartition as alterPartitionApi,
  ByteReader,
  ByteWriter,
} from "../../../src/protocol/index.js";
import type {
  AlterPartitionItem,
  AlterPartitionOutcome,
  AlterPartitionSender,
} from "../../../src/replication/index.js";
import { ORDERS, type MetadataBatch } from "./broker.js";
import type { ScenarioWorld } from "./world.js";

/** The AlterPartition version the leaders' requests go out at: ISR members with epochs. */
const ALTER_PARTITION_VERSION = 3;

interface Proposal {
  readonly from: number;
  readonly brokerEpoch: number;
  readonly item: AlterPartitionItem;
  readonly answer: (outcome: AlterPartitionOutcome) => void;
}

export class ScriptedController {
  readonly batches: MetadataBatch[] = [];
  private nextOffset = 0;
  private current: MetadataImage = EMPTY_IMAGE;
  private proposals: Proposal[] = [];

  constructor(private readonly world: ScenarioWorld) {
    // A new cluster: the latest metadata.version, eligible leader replicas on (KIP-966).
    this.append(
      bootstrapRecords({ features: [{ name: ELIGIBLE_LEADER_REPLICAS_FEATURE, level: 1 }] }),
    );
  }

  get image(): MetadataImage {
    return this.current;
  }

  /** The scenario partition's registration, once the topic exists. */
  get partition(): PartitionRegistration | undefined {
    return this.current.topics.byName.get(ORDERS.topic)?.partitions.get(ORDERS.partition);
  }

  /** Appends one batch (committed at once) and replays it into the controller's image. */
  append(records: readonly MetadataRecord[]): void {
    const baseOffset = this.nextOffset;
    const delta = new MetadataDelta(this.current);
    delta.replayAll(records, baseOffset);
    this.nextOffset += records.length;
    this.current = delta.apply({ lastContainedOffset: this.nextOffset - 1, lastContainedEpoch: 1 });
    this.batches.push({ baseOffset, records });
  }

  /**
   * Registers a run of broker `id`, unfenced, and returns its broker epoch: as in Kafka, the
   * offset of its RegisterBrokerRecord.
   */
  register(id: number): number {
    const brokerEpoch = this.nextOffset;
    this.append([registerBroker(id, brokerEpoch, { fenced: false })]);
    return brokerEpoch;
  }

  /** The sender through which a run of broker `from` with `brokerEpoch` proposes ISR changes. */
  senderFor(from: number, brokerEpoch: number, isCurrent: () => boolean): AlterPartitionSender {
    return {
      submit: (item) =>
        new Promise<AlterPartitionOutcome>((resolve) => {
          this.world.print(`${from}->controller AlterPartition{${describeItem(item)}}`);
          const answer = (outcome: AlterPartitionOutcome) => {
            if (isCurrent()) resolve(outcome);
          };
          this.proposals.push({ from, brokerEpoch, item, answer });
        }),
    };
  }

  /** The proposals waiting for an answer, oldest first. */
  pending(): string[] {
    return this.proposals.map(
      (proposal) => `${proposal.from}->controller AlterPartition{${describeItem(proposal.item)}}`,
    );
  }

  /**
   * Answers the oldest waiting proposal (of `from`, when given): with `errorCode`, or when it is
   * undefined through the controller's AlterPartition control, whose records are then committed.
   * Returns whether records were committed (none for an error or a refusal).
   */
  answer(from: number | undefined, errorCode: number | undefined): boolean {
    const index = this.proposals.findIndex(
      (proposal) => from === undefined || proposal.from === from,
    );
    assert.ok(index >= 0, `no AlterPartition waits${from === undefined ? "" : ` from ${from}`}`);
    const [proposal] = this.proposals.splice(index, 1) as [Proposal];
    let outcome: AlterPartitionAnswer;
    let records: readonly MetadataRecord[] = [];
    if (errorCode !== undefined) outcome = { kind: "error", errorCode };
    else ({ outcome, records } = this.control(proposal));
    this.world.print(`controller->${proposal.from} AlterPartition => ${describeOutcome(outcome)}`);
    proposal.answer(outcome);
    if (records.length > 0) this.append(records);
    return records.length > 0;
  }

  private control(proposal: Proposal): {
    outcome: AlterPartitionAnswer;
    records: readonly MetadataRecord[];
  } {
    const sender = { brokerId: proposal.from, brokerEpoch: proposal.brokerEpoch };
    const input = alterPartitionRequest(sender, [proposal.item], ALTER_PARTITION_VERSION);
    // Through the codec, as the request reaches the controller: every field present.
    const writer = new ByteWriter();
    alterPartitionApi.encodeRequest(ALTER_PARTITION_VERSION, input, writer);
    const reader = new ByteReader(writer.finish());
    const request = alterPartitionApi.decodeRequest(ALTER_PARTITION_VERSION, reader);
    const result = alterPartition(this.current, request, ALTER_PARTITION_VERSION);
    const [outcome] = alterPartitionAnswers(result.response, [proposal.item]);
    assert.ok(outcome !== undefined, "the controller answers every proposal");
    return { outcome, records: result.records };
  }
}

function describeItem(item: AlterPartitionItem): string {
  const isr = item.newIsrWithEpochs.map((member) => member.brokerId).join(",");
  const epochs = item.newIsrWithEpochs.map((member) => member.brokerEpoch).join(",");
  return (
    `isr=${isr} brokerEpochs=${epochs} leaderEpoch=${item.leaderEpoch}` +
    ` partitionEpoch=${item.partitionEpoch}`
  );
}

function describeOutcome(outcome: AlterPartitionAnswer): string {
  if (outcome.kind === "error") return errorName(outcome.errorCode);
  const isr = outcome.isr.join(",");
  return `isr=${isr} leaderEpoch=${outcome.leaderEpoch} partitionEpoch=${outcome.partitionEpoch}`;
}

/** The controller's view of the partition in one line. */
export function describeRegistration(partition: PartitionRegistration | undefined): string {
  if (partition === undefined) return "controller: no partition";
  const list = (ids: readonly BrokerId[]) => (ids.length === 0 ? "-" : ids.join(","));
  const elr = partition.eligibleLeaderReplicas;
  return (
    `controller: leader=${partition.leader} epoch=${partition.leaderEpoch}` +
    ` partitionEpoch=${partition.partitionEpoch} isr=${list(partition.isr)}` +
    (elr.length > 0 ? ` elr=${list(elr)}` : "")
  );
}
