/**
 * Runs the partition scenario scripts in test/scenarios/partition/*.txt (see the README there):
 * the replication rules of a partition, each script a Kafka rule or KIP, played on brokers that
 * run the production replica manager on simulated disks. Each command's printed lines must match
 * the "> " lines under it; SCENARIO_REWRITE=1 rewrites them.
 */
import { registerScenarioTests } from "./scenarios/script.js";
import { PartitionScriptRunner } from "./scenarios/partition/script.js";

registerScenarioTests({
  folder: "partition",
  title: "partition",
  newRunner: () => new PartitionScriptRunner(),
});
