/** What a quorum controller is built from: its view of Raft, its settings and its ports. */
import type { Clock, Crypto, Logger, MetricsSink, Random, Timers } from "../../ports/index.js";
import type { ControllerRaft } from "./controller-raft.js";
import type { QuorumControllerSettings } from "./controller-settings.js";

export interface QuorumControllerOptions {
  readonly raft: ControllerRaft;
  readonly settings: QuorumControllerSettings;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  readonly logger: Logger;
  readonly metrics: MetricsSink;
  /** Hashes for AlterUserScramCredentials; a controller without them does not serve it. */
  readonly crypto?: Crypto | undefined;
}
