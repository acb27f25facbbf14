/**
 * The writes the controller makes of its own accord, on its tick: the liveness scan that fences
 * brokers whose session ended, and the automatic preferred-leader rebalance. They go through the
 * same queue as requests, so they compute from the latest image like any write.
 */
import type { BrokerId } from "../../common/index.js";
import { fenceStaleBrokers } from "../cluster/index.js";
import { preferredLeaderRebalance } from "../election/index.js";
import type { WriteOperation } from "./operation.js";

/** What the liveness scan did: the brokers it fenced, or why it did not run. */
export type LivenessScanOutcome =
  | { readonly kind: "scanned"; readonly fencedBrokerIds: readonly BrokerId[] }
  | { readonly kind: "refused"; readonly errorCode: number };

/** The liveness scan: fences every unfenced broker not heard from within the session timeout. */
export function livenessScanOperation(): WriteOperation<LivenessScanOutcome> {
  return {
    kind: "write",
    name: "LivenessScan",
    compute: (context) => {
      const result = fenceStaleBrokers({
        image: context.image,
        heartbeats: context.heartbeats,
        nowMs: context.nowMs,
        sessionTimeoutMs: context.settings.cluster.sessionTimeoutMs,
        hooks: context.hooks,
      });
      const response = { kind: "scanned", fencedBrokerIds: result.fencedBrokerIds } as const;
      return { records: result.records, response };
    },
    refuse: (refusal) => ({ kind: "refused", errorCode: refusal.errorCode }),
  };
}

/** What a rebalance check did: whether elections remain for another check at once. */
export type RebalanceOutcome =
  | { readonly kind: "checked"; readonly hasMore: boolean; readonly elections: number }
  | { readonly kind: "refused"; readonly errorCode: number };

/** One check of `leader.imbalance.check.interval.seconds`: preferred elections where due. */
export function leaderRebalanceOperation(): WriteOperation<RebalanceOutcome> {
  return {
    kind: "write",
    name: "LeaderRebalance",
    compute: (context) => {
      const result = preferredLeaderRebalance(
        context.image,
        context.settings.leaderRebalance,
        context.settings.replication,
      );
      const response = {
        kind: "checked",
        hasMore: result.response.hasMore,
        elections: result.elections.length,
      } as const;
      return { records: result.records, response, elections: result.elections };
    },
    refuse: (refusal) => ({ kind: "refused", errorCode: refusal.errorCode }),
  };
}
