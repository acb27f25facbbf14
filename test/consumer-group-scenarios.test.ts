/**
 * Runs the consumer group scenario scripts in test/scenarios/consumer-group/*.txt (see the
 * README there): the KIP-848 heartbeat and reconciliation rules, each script a Kafka rule.
 */
import { registerScenarioTests } from "./scenarios/script.js";
import { ConsumerGroupScriptRunner } from "./scenarios/consumer-group/script.js";

registerScenarioTests({
  folder: "consumer-group",
  title: "consumer group",
  newRunner: () => new ConsumerGroupScriptRunner(),
});
