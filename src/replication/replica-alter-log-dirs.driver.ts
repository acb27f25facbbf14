/**
 * Moving replicas between this broker's log dirs (AlterReplicaLogDirs, KIP-113), as Kafka's
 * ReplicaAlterLogDirsManager and its thread do. The log manager makes the future log in the
 * target dir; this driver copies into it in bounded steps, one after another while any move
 * has bytes to copy, and once a step finds the future log at the current log's end:
 *
 *   copying ──caught up──▶ assigning ──controller accepted──▶ swapping ──▶ (done)
 *
 * With a directory assigner (KIP-858) the controller is told of the target dir first, and the
 * swap waits for its answer, as Kafka's thread waits, so that the controller never believes a
 * replica to be in a dir it has not yet reached. The swap runs under the partition's log access,
 * with no append or read under way. A move ends early when its partition or future log goes
 * away (deleted, or its dir failed).
 */
import { ErrorCode, type Uuid } from "../common/index.js";
import type { Logger, Timer, Timers } from "../ports/index.js";
import {
  errorCodeOfAlterReplicaLogDir,
  futureDirName,
  type LogManager,
  type TopicPartition,
} from "../storage/index.js";
import type { MetadataImage } from "../metadata/index.js";
import { hasDirectoryAssignment, type DirectoryAssigner } from "./directory-assignments.js";
import type { HostedPartition } from "./hosted-partitions.js";

/** Kafka refuses a move whose future folder name would pass the file-name limit (KAFKA-4893). */
const FOLDER_NAME_MAX = 255;
/** How long to wait before looking again at moves that had nothing to copy. */
const IDLE_STEP_DELAY_MS = 100;
const LONGEST_UUID = "f".repeat(32) as Uuid;

type MoveState = "copying" | "assigning" | "accepted";

interface Move {
  readonly topicPartition: TopicPartition;
  readonly targetDir: string;
  state: MoveState;
}

export interface ReplicaAlterLogDirsOptions {
  readonly logManager: LogManager;
  /** The replica manager's hosted replica of a partition. */
  readonly hosted: (topicPartition: TopicPartition) => HostedPartition | undefined;
  readonly directoryAssigner?: DirectoryAssigner;
  /** The metadata now: only a metadata.version with directory assignment is told of moves. */
  readonly image: () => MetadataImage;
  readonly timers: Timers;
  readonly logger: Logger;
}

/** The replica moves of one broker; see the file comment. */
export class ReplicaAlterLogDirs {
  private readonly moves = new Map<string, Move>();
  private timer: Timer | undefined;
  private running: Promise<void> = Promise.resolve();
  private isShutDown = false;

  constructor(private readonly options: ReplicaAlterLogDirsOptions) {}

  /** The partitions being moved now. */
  get movingPartitions(): TopicPartition[] {
    return [...this.moves.values()].map((move) => move.topicPartition);
  }

  /**
   * Starts (or confirms, or cancels) the move of a replica to `targetDir`; resolves to the Kafka
   * error code: LOG_DIR_NOT_FOUND, KAFKA_STORAGE_ERROR (target or current dir offline),
   * REPLICA_NOT_AVAILABLE (no replica here), INVALID_TOPIC_EXCEPTION (name too long) or NONE.
   */
  async alterReplicaLogDir(topicPartition: TopicPartition, targetDir: string): Promise<number> {
    const { logManager } = this.options;
    if (futureDirName(topicPartition, LONGEST_UUID).length > FOLDER_NAME_MAX) {
      return ErrorCode.INVALID_TOPIC_EXCEPTION;
    }
    if (!logManager.config.logDirs.includes(targetDir)) return ErrorCode.LOG_DIR_NOT_FOUND;
    if (!logManager.isLogDirOnline(targetDir)) return ErrorCode.KAFKA_STORAGE_ERROR;
    const hosted = this.options.hosted(topicPartition);
    if (hosted?.kind === "offline") return ErrorCode.KAFKA_STORAGE_ERROR;
    if (hosted === undefined) return ErrorCode.REPLICA_NOT_AVAILABLE;
    const key = keyOf(topicPartition);
    const result = await logManager.alterReplicaLogDir(topicPartition, targetDir);
    const previous = this.moves.get(key);
    if (result.kind === "moving" && !this.isShutDown) {
      if (previous?.targetDir !== targetDir) {
        if (previous !== undefined) this.end(previous, { isSwapped: false });
        this.moves.set(key, { topicPartition, targetDir, state: "copying" });
      }
      this.schedule(0);
    } else if (previous !== undefined) this.end(previous, { isSwapped: false });
    return errorCodeOfAlterReplicaLogDir(result);
  }

  /** Stops moving; the future logs stay on disk and a restart goes on with them. */
  async shutdown(): Promise<void> {
    this.isShutDown = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
    this.moves.clear();
  }

  private schedule(delayMs: number): void {
    if (this.isShutDown || this.timer !== undefined) return;
    this.timer = this.options.timers.schedule(delayMs, () => {
      this.timer = undefined;
      this.running = this.running.then(() => this.runStep());
    });
  }

  /** One round over the moves; schedules the next while any remains. */
  private async runStep(): Promise<void> {
    let hasCopied = false;
    for (const [key, move] of [...this.moves]) {
      if (this.isShutDown) return;
      const outcome = await this.advance(move);
      if (outcome === "done" && this.moves.get(key) === move) {
        this.end(move, {
          isSwapped: this.options.logManager.logDirOf(move.topicPartition) === move.targetDir,
        });
      }
      if (outcome === "copied") hasCopied = true;
    }
    if (this.moves.size > 0) this.schedule(hasCopied ? 0 : IDLE_STEP_DELAY_MS);
  }

  private async advance(move: Move): Promise<"done" | "copied" | "waiting"> {
    const { logManager } = this.options;
    const { topicPartition } = move;
    const hosted = this.options.hosted(topicPartition);
    if (hosted?.kind !== "online") return "done";
    if (move.state === "accepted") return this.swap(move, hosted);
    const step = await logManager.catchUpFutureLog(topicPartition);
    if (step.kind !== "copied") return "done";
    // A read that was not cut by the size limit reached the current log's end as it was; what
    // was appended since is copied during the swap, with appends held back.
    const isCaughtUp = step.isCaughtUp || step.bytes < logManager.config.replicaFetchMaxBytes;
    if (move.state === "copying" && isCaughtUp) this.assign(move, hosted);
    return step.bytes > 0 ? "copied" : "waiting";
  }

  private assign(move: Move, hosted: HostedPartition & { kind: "online" }): void {
    const { directoryAssigner, logManager } = this.options;
    const directoryId = logManager.directoryIdOf(move.targetDir);
    const isAssigned = hasDirectoryAssignment(this.options.image());
    if (directoryAssigner === undefined || directoryId === undefined || !isAssigned) {
      move.state = "accepted";
      return;
    }
    move.state = "assigning";
    const { topicId } = hosted.partition;
    const { partition: partitionIndex } = move.topicPartition;
    directoryAssigner.assign({ topicId, partitionIndex, directoryId }, () => {
      if (this.moves.get(keyOf(move.topicPartition)) !== move) return;
      move.state = "accepted";
      this.schedule(0);
    });
  }

  /**
   * Forgets `move`; one the controller was told of but that did not swap tells it the dir the
   * replica is in after all (Kafka's revert of a cancelled promotion), if it is still hosted.
   */
  private end(move: Move, outcome: { readonly isSwapped: boolean }): void {
    const { directoryAssigner, logManager } = this.options;
    const { topicPartition } = move;
    if (this.moves.get(keyOf(topicPartition)) === move) this.moves.delete(keyOf(topicPartition));
    if (outcome.isSwapped || move.state === "copying" || directoryAssigner === undefined) return;
    if (!hasDirectoryAssignment(this.options.image())) return;
    const hosted = this.options.hosted(topicPartition);
    const logDir = logManager.logDirOf(topicPartition);
    const directoryId = logDir === undefined ? undefined : logManager.directoryIdOf(logDir);
    if (hosted?.kind !== "online" || directoryId === undefined) return;
    const { topicId } = hosted.partition;
    directoryAssigner.assign({ topicId, partitionIndex: topicPartition.partition, directoryId });
  }

  private async swap(move: Move, hosted: HostedPartition & { kind: "online" }) {
    const { logManager, logger } = this.options;
    const result = await hosted.partition.replaceLog(async () => {
      const replaced = await logManager.replaceCurrentWithFutureLog(move.topicPartition);
      return replaced.kind === "replaced" ? replaced : { kind: "failed" };
    });
    const name = keyOf(move.topicPartition);
    if (result.kind === "replaced") {
      logger.info("replica moved to another log dir", { partition: name, dir: result.logDir });
    } else logger.warn("replica move ended without a swap", { partition: name });
    return "done" as const;
  }
}

function keyOf(topicPartition: TopicPartition): string {
  return `${topicPartition.topic}-${topicPartition.partition}`;
}
