/**
 * src/replication's DirectoryAssigner on the controller channel (Kafka's AssignmentsManager,
 * KIP-858): each replica's log dir, as this broker placed it, goes to the controller in
 * AssignReplicasToDirs requests, one in flight at a time and up to 2250 replicas each. A newer
 * assignment of a replica replaces one not yet sent. A failed request, or a replica the
 * controller refused, is sent again after an exponential backoff (100 ms doubling to 10 s);
 * an assignment the metadata no longer calls for (the replica left this broker) is dropped.
 */
import { ErrorCode } from "../../common/index.js";
import type { Logger, Timer, Timers } from "../../ports/index.js";
import type {
  AssignReplicasToDirsRequest,
  AssignReplicasToDirsResponse,
} from "../../protocol/index.js";
import type { DirectoryAssignment } from "../../replication/index.js";
import type { BrokerEpochSource } from "./controller-alter-partition-sender.driver.js";
import { assignReplicasToDirsRequest, assignmentErrorCodes } from "./directory-assignment-batch.js";

/** Kafka's AssignReplicasToDirsRequest.MAX_ASSIGNMENTS_PER_REQUEST. */
const ASSIGNMENTS_PER_REQUEST_MAX = 2250;
const BACKOFF_INITIAL_MS = 100;
const BACKOFF_MAX_MS = 10_000;

/** Sends one request to the active controller: its answer, or the error code of a failure. */
export type AssignmentTransport = (
  request: AssignReplicasToDirsRequest,
) => Promise<
  | { readonly kind: "response"; readonly body: AssignReplicasToDirsResponse }
  | { readonly kind: "failed"; readonly errorCode: number }
>;

export interface ControllerDirectoryAssignerOptions {
  readonly brokerEpoch: BrokerEpochSource;
  readonly timers: Timers;
  readonly logger: Logger;
  /** Whether the metadata still has this broker host the replica (Kafka's Assignment.valid). */
  readonly isStillHosted: (assignment: DirectoryAssignment) => boolean;
}

/** Sends the broker's replica-to-dir assignments; see the file comment. */
export class ControllerDirectoryAssigner {
  private readonly ready = new Map<string, DirectoryAssignment>();
  private readonly callbacks = new Map<DirectoryAssignment, () => void>();
  private isInFlight = false;
  private retryTimer: Timer | undefined;
  private failures = 0;
  private isClosed = false;

  constructor(
    private readonly transport: AssignmentTransport,
    private readonly options: ControllerDirectoryAssignerOptions,
  ) {}

  /** How many assignments wait to be sent (again). */
  get pendingCount(): number {
    return this.ready.size;
  }

  /** Whether nothing waits and no request is in flight. */
  get isIdle(): boolean {
    return this.ready.size === 0 && !this.isInFlight;
  }

  /** Queues `assignment`; `onAccepted` runs once the controller has accepted it. */
  assign(assignment: DirectoryAssignment, onAccepted?: () => void): void {
    if (this.isClosed) return;
    const key = keyOf(assignment);
    const replaced = this.ready.get(key);
    if (replaced !== undefined) this.callbacks.delete(replaced);
    if (onAccepted !== undefined) this.callbacks.set(assignment, onAccepted);
    this.ready.set(key, assignment);
    this.maybeSend();
  }

  /** Stops sending; queued assignments are dropped (the next start reports them again). */
  close(): void {
    this.isClosed = true;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.ready.clear();
    this.callbacks.clear();
  }

  private maybeSend(): void {
    if (this.isClosed || this.isInFlight || this.retryTimer !== undefined) return;
    const batch: DirectoryAssignment[] = [];
    for (const [key, assignment] of this.ready) {
      if (batch.length >= ASSIGNMENTS_PER_REQUEST_MAX) break;
      this.ready.delete(key);
      if (this.options.isStillHosted(assignment)) batch.push(assignment);
      else this.callbacks.delete(assignment);
    }
    if (batch.length === 0) return;
    this.isInFlight = true;
    void this.send(batch).finally(() => {
      this.isInFlight = false;
      this.maybeSend();
    });
  }

  private async send(batch: readonly DirectoryAssignment[]): Promise<void> {
    const result = await this.transport(
      assignReplicasToDirsRequest(this.options.brokerEpoch(), batch),
    );
    if (this.isClosed) return;
    const errorCodes =
      result.kind === "response"
        ? assignmentErrorCodes(result.body, batch)
        : batch.map(() => result.errorCode);
    let retries = 0;
    let lastError: number = ErrorCode.NONE;
    batch.forEach((assignment, index) => {
      const errorCode = errorCodes[index] ?? ErrorCode.UNKNOWN_SERVER_ERROR;
      if (errorCode === ErrorCode.NONE) {
        this.callbacks.get(assignment)?.();
        this.callbacks.delete(assignment);
        return;
      }
      // A newer assignment of the replica, queued meanwhile, wins over the one that failed.
      const key = keyOf(assignment);
      if (!this.ready.has(key)) this.ready.set(key, assignment);
      else this.callbacks.delete(assignment);
      retries++;
      lastError = errorCode;
    });
    if (retries > 0) this.backOff(retries, lastError);
    else this.failures = 0;
  }

  private backOff(retries: number, errorCode: number): void {
    this.failures++;
    const delayMs = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** (this.failures - 1));
    this.options.logger.warn("log dir assignments not accepted; retrying", {
      assignments: retries,
      errorCode,
      delayMs,
    });
    this.retryTimer = this.options.timers.schedule(delayMs, () => {
      this.retryTimer = undefined;
      this.maybeSend();
    });
  }
}

function keyOf(assignment: DirectoryAssignment): string {
  return `${assignment.topicId}:${assignment.partitionIndex}`;
}
