/**
 * What a scenario is: the cluster it needs, the capabilities it needs, and one round of its
 * fault (inject, hold, heal), which the runner repeats until the scenario's time is up.
 */
import type { Capability } from "./capabilities.js";
import type { Cluster, ClusterOptions } from "./cluster.js";
import type { History } from "./history.js";
import type { NodeProcess } from "./node-process.js";

export interface FaultContext {
  readonly cluster: Cluster;
  readonly topic: string;
  readonly history: History;
  /** Records a fault injected, in the history (process `nemesis`) and the report. */
  note(fault: string, detail: string): void;
  /** Records a fault healed, in the history. */
  healed(detail: string): void;
  /** A random integer in [0, bound). */
  pick(bound: number): number;
  /** Waits `ms`, cut short when the run is aborted. */
  hold(ms: number): Promise<void>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly requires: readonly Capability[];
  /** When set, the scenario's faults are outside Sluice's fault model, and why. */
  readonly outsideFaultModel?: string;
  readonly cluster?: Partial<
    Pick<ClusterOptions, "settings" | "env" | "nodes" | "initialVoters">
  > & {
    readonly prepare?: (node: NodeProcess) => Promise<void>;
  };
  /** One round: inject the fault, hold it, heal it. */
  round(context: FaultContext): Promise<void>;
}
