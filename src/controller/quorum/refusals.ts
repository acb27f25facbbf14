/**
 * The refusals the quorum controller answers operations with: NOT_CONTROLLER naming the active
 * controller it knows, a full queue, and the refusals of proposals Raft did not accept. Each
 * names `leaderId`, the controller a client should send to (see `refusalLeaderId`).
 */
import { assertNever, ErrorCode } from "../../common/index.js";
import type { ControllerProposeResult } from "./controller-raft.js";
import type { ControllerRefusal } from "./operation.js";

/**
 * The controller a refusal names: the leader Raft knows, except this node while it is not (yet)
 * the active controller, which names no one (null) as it cannot serve.
 */
export function refusalLeaderId(
  raftLeaderId: number | null,
  node: { readonly nodeId: number; readonly isActive: boolean },
): number | null {
  return raftLeaderId === node.nodeId && !node.isActive ? null : raftLeaderId;
}

/** NOT_CONTROLLER, naming the active controller if one is known. */
export function notControllerRefusal(leaderId: number | null): ControllerRefusal {
  const known = leaderId === null ? "not known" : `node ${leaderId}`;
  return {
    errorCode: ErrorCode.NOT_CONTROLLER,
    errorMessage: `the active controller is ${known}`,
    leaderId,
  };
}

/** REQUEST_TIMED_OUT for an operation that found the queue at `queuedOperationsMax`. */
export function queueFullRefusal(leaderId: number | null): ControllerRefusal {
  return {
    errorCode: ErrorCode.REQUEST_TIMED_OUT,
    errorMessage: "the controller is busy",
    leaderId,
  };
}

export function proposalRefusal(
  proposed: Extract<ControllerProposeResult, { kind: "refused" }>,
  leaderId: number | null,
): ControllerRefusal {
  switch (proposed.reason) {
    case "throttled":
      return {
        errorCode: ErrorCode.REQUEST_TIMED_OUT,
        errorMessage: "the metadata log is busy",
        leaderId,
      };
    case "tooLarge":
      return {
        errorCode: ErrorCode.INVALID_REQUEST,
        errorMessage: "the change does not fit in one batch",
        leaderId,
      };
    case "offsetMismatch":
      // Kafka answers an unexpected base offset with NOT_CONTROLLER too; the broker retries,
      // and by then the controller expects the offset the log is really at.
      return {
        errorCode: ErrorCode.NOT_CONTROLLER,
        errorMessage: `the metadata log moved to offset ${proposed.nextOffset}; retry`,
        leaderId,
      };
    case "notLeader":
      return notControllerRefusal(leaderId);
    default:
      return assertNever(proposed);
  }
}
