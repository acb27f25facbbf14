/**
 * What clients do in the partition scenarios, through a broker's real replica manager as its
 * request handlers would: Produce (`appendRecords`, then for acks=all a wait that completes as
 * the broker's delayed produce does: checked through `checkEnoughReplicasReachOffset` whenever
 * the high watermark or the replica's role changes, and ended with REQUEST_TIMED_OUT after the
 * request's timeout), ListOffsets as a consumer and DeleteRecords.
 */
import { ErrorCode, errorName } from "../../../src/common/index.js";
import type { IsolationLevel, Partition } from "../../../src/replication/index.js";
import { simulationEpochMs } from "../../../sim/index.js";
import { clientBatch } from "../../replication/fixtures.js";
import { ORDERS } from "./broker.js";
import type { PartitionCluster } from "./cluster.js";

/** An acks=all produce waiting for its records to be replicated. */
interface AcksWait {
  readonly broker: number;
  readonly run: number;
  readonly partition: Partition;
  readonly requiredOffset: number;
  readonly range: string;
  readonly deadlineMs: number;
  readonly stopListening: () => void;
}

export class ScenarioClients {
  private waits: AcksWait[] = [];

  constructor(private readonly cluster: PartitionCluster) {}

  /** One batch of `values` produced to broker `id` with `acks` -1 (all) or 1. */
  async produce(
    id: number,
    options: { readonly acks: number; readonly timeoutMs: number; readonly values: string[] },
  ): Promise<void> {
    const { world } = this.cluster;
    const process = this.cluster.process(id);
    const timestamp = simulationEpochMs + world.nowMs;
    const records = clientBatch(options.values.map((value) => ({ value, timestamp })));
    const result = await world.run(
      process.replicaManager.appendRecords([{ topicPartition: ORDERS, records }], {
        requiredAcks: options.acks,
      }),
    );
    const outcome = result.results[0]?.outcome;
    if (outcome === undefined || outcome.kind === "error") {
      world.print(`produce => ${errorName(outcome?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR)}`);
      return;
    }
    const range = `${outcome.firstOffset}..${outcome.lastOffset}`;
    world.print(`produce => appended ${range}`);
    for (const wait of result.waits) {
      const check = () => this.checkWaits();
      const stopHighWatermark = wait.partition.onHighWatermarkChanged(check);
      const stopRole = process.replicaManager.onPartitionRoleChanged(check);
      this.waits.push({
        broker: id,
        run: this.cluster.runOf(id),
        partition: wait.partition,
        requiredOffset: wait.requiredOffset,
        range,
        deadlineMs: world.nowMs + options.timeoutMs,
        stopListening: () => {
          stopHighWatermark();
          stopRole();
        },
      });
    }
    this.checkWaits();
  }

  /** Completes the waits that are done, lost with their broker, or past their timeout. */
  checkWaits(): void {
    const { world } = this.cluster;
    this.waits = this.waits.filter((wait) => {
      const answer = this.answerOf(wait);
      if (answer === undefined) return true;
      wait.stopListening();
      world.print(`produce ${wait.range} acks=all => ${answer}`);
      return false;
    });
  }

  /** ListOffsets as a consumer (replica id -1) for the latest (-1) or earliest (-2) offset. */
  async listOffsets(
    id: number,
    options: { readonly timestamp: number; readonly isolation: IsolationLevel },
  ): Promise<void> {
    const { world } = this.cluster;
    const partition = this.cluster.process(id).partition;
    if (partition === undefined) return world.print("list-offsets => NOT_LEADER_OR_FOLLOWER");
    const found = await world.run(
      partition.fetchOffsetForTimestamp(options.timestamp, {
        isolation: options.isolation,
        currentLeaderEpoch: -1,
        fetchOnlyFromLeader: true,
      }),
    );
    if (found.kind === "error") return world.print(`list-offsets => ${errorName(found.errorCode)}`);
    if (found.kind === "notFound") return world.print("list-offsets => offset=-1");
    world.print(`list-offsets => offset=${found.offset} leaderEpoch=${found.leaderEpoch}`);
  }

  /** DeleteRecords up to `offset` on broker `id`, which must lead. */
  async deleteRecords(id: number, offset: number): Promise<void> {
    const { world } = this.cluster;
    const partition = this.cluster.process(id).partition;
    if (partition === undefined) return world.print("delete-records => NOT_LEADER_OR_FOLLOWER");
    const deleted = await world.run(partition.deleteRecordsOnLeader(offset));
    world.print(
      deleted.kind === "deleted"
        ? `delete-records => lowWatermark=${deleted.lowWatermark}`
        : `delete-records => ${errorName(deleted.errorCode)}`,
    );
  }

  private answerOf(wait: AcksWait): string | undefined {
    if (this.cluster.runOf(wait.broker) !== wait.run) {
      return `no answer (${wait.broker} went down)`;
    }
    const progress = wait.partition.checkEnoughReplicasReachOffset(wait.requiredOffset);
    if (progress.kind === "done") return errorName(progress.errorCode);
    if (this.cluster.world.nowMs >= wait.deadlineMs) return errorName(ErrorCode.REQUEST_TIMED_OUT);
    return undefined;
  }
}
