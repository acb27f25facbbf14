/**
 * Which controller a broker sends its next controller request to. Kafka's brokers learn the
 * active controller from the Raft client that follows the metadata log; a Sluice broker does the
 * same when the node assembly passes that knowledge in as a hint, and otherwise walks the
 * configured controllers round-robin: a NOT_CONTROLLER answer carries no leader, so the only
 * thing it says is "not this one". The target that last answered well is kept until it fails.
 */
import { assert, type NodeId } from "../../common/index.js";
import type { Address } from "../../ports/index.js";

/**
 * A controller as configured: a voter of `controller.quorum.voters` (id and address), or an
 * entry of `controller.quorum.bootstrap.servers` (an address, no id).
 */
export interface ControllerEndpoint {
  readonly nodeId: NodeId | undefined;
  readonly address: Address;
}

/** The rotation over the configured controllers; pure, the channel drives it. */
export class ControllerTargets {
  private readonly endpoints: readonly ControllerEndpoint[];
  private current = 0;
  private lastHint: NodeId | undefined;

  constructor(endpoints: readonly ControllerEndpoint[]) {
    assert(endpoints.length > 0, "a broker needs at least one controller to talk to");
    this.endpoints = [...endpoints];
  }

  /** Every configured controller, in configuration order. */
  get all(): readonly ControllerEndpoint[] {
    return this.endpoints;
  }

  /** The controller to try now. */
  get target(): ControllerEndpoint {
    return this.endpoints[this.current] as ControllerEndpoint;
  }

  /**
   * Moves to the controller `leaderId` names, if it is configured; returns whether this is a new
   * leader the target now points at (it may have pointed there already, by rotation). The hint
   * comes from the metadata log's Raft leader, which is the active controller. A hint is
   * followed once: if that node then says NOT_CONTROLLER, the hint is stale and the rotation
   * goes on without it until the hint changes.
   */
  maybeFollowLeader(leaderId: NodeId | undefined): boolean {
    if (leaderId === undefined || leaderId === this.lastHint) return false;
    this.lastHint = leaderId;
    const index = this.endpoints.findIndex((endpoint) => endpoint.nodeId === leaderId);
    if (index < 0) return false;
    this.current = index;
    return true;
  }

  /** The current target failed or is not the controller: the next one is tried. */
  moveOn(): void {
    this.current = (this.current + 1) % this.endpoints.length;
  }
}
