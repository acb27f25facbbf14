/**
 * The refusals the quorum controller answers operations with: NOT_CONTROLLER naming the active
 * controller it knows, and the refusals of proposals Raft did not accept.
 */
import { assertNever, ErrorCode } from "../../common/index.js";
import type { ControllerCore } from "./controller-core.js";
import type { ControllerProposeResult } from "./controller-raft.js";
import type { ControllerRefusal } from "./operation.js";

/** A refusal with this error, naming the active controller as far as this node knows. */
export function refusalOf(
  core: ControllerCore,
  errorCode: number,
  errorMessage: string,
): ControllerRefusal {
  return { errorCode, errorMessage, leaderId: activeControllerIdOrNull(core) };
}

/** NOT_CONTROLLER, naming the active controller if one is known. */
export function notControllerRefusal(core: ControllerCore): ControllerRefusal {
  const leaderId = activeControllerIdOrNull(core);
  const known = leaderId === null ? "not known" : `node ${leaderId}`;
  return refusalOf(core, ErrorCode.NOT_CONTROLLER, `the active controller is ${known}`);
}

/** The refusal of an operation whose proposal Raft refused. */
export function proposalRefusal(
  core: ControllerCore,
  proposed: Extract<ControllerProposeResult, { kind: "refused" }>,
): ControllerRefusal {
  switch (proposed.reason) {
    case "throttled":
      return refusalOf(core, ErrorCode.REQUEST_TIMED_OUT, "the metadata log is busy");
    case "tooLarge":
      return refusalOf(core, ErrorCode.INVALID_REQUEST, "the change does not fit in one batch");
    case "offsetMismatch":
      // Kafka answers an unexpected base offset with NOT_CONTROLLER too; the broker retries,
      // and by then the controller expects the offset the log is really at.
      return refusalOf(
        core,
        ErrorCode.NOT_CONTROLLER,
        `the metadata log moved to offset ${proposed.nextOffset}; retry`,
      );
    case "notLeader":
      return notControllerRefusal(core);
    default:
      return assertNever(proposed);
  }
}

/** The leader Raft knows, except this node while it is not (yet) the active controller. */
function activeControllerIdOrNull(core: ControllerCore): number | null {
  const leaderId = core.options.raft.leaderAndEpoch().leaderId;
  return leaderId === core.nodeId && core.state.kind !== "active" ? null : leaderId;
}
