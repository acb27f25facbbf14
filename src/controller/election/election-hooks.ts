/**
 * The membership controls' PartitionHooks, served by the election code: the quorum controller
 * driver builds them once with the controller's static defaults and a sink for the election
 * reports (its logger), and hands them to the membership controls.
 */
import type { PartitionHooks } from "../cluster/partition-hooks.js";
import {
  handleBrokerFenced,
  handleBrokerShutdown,
  handleBrokerUncleanShutdown,
  handleBrokerUnfenced,
  handleOfflineLogDirs,
} from "./broker-events.js";
import type { ElectionReport } from "./election-report.js";
import type { PartitionChanges } from "./partition-changes.js";
import type { ReplicationDefaults } from "./topic-settings.js";

/** PartitionHooks that elect with `defaults` and pass every election to `onElection`. */
export function electionPartitionHooks(
  defaults: ReplicationDefaults,
  onElection: (report: ElectionReport) => void,
): PartitionHooks {
  const report = (changes: PartitionChanges) => {
    changes.elections.forEach(onElection);
    return changes.records;
  };
  return {
    brokerFenced: (image, brokerId) => report(handleBrokerFenced(image, brokerId, defaults)),
    brokerShuttingDown: (image, brokerId) =>
      report(handleBrokerShutdown(image, brokerId, defaults)),
    brokerUncleanShutdown: (image, brokerId) =>
      report(handleBrokerUncleanShutdown(image, brokerId, defaults)),
    brokerUnfenced: (image, brokerId) => report(handleBrokerUnfenced(image, brokerId, defaults)),
    logDirsOffline: (image, brokerId, directories) =>
      report(handleOfflineLogDirs(image, brokerId, directories, defaults)),
  };
}
