/**
 * Runs the group scenario scripts in test/scenarios/group/*.txt (see the README there): the
 * classic group rules, each script a Kafka rule. Each command's printed lines must match the
 * "> " lines under it; SCENARIO_REWRITE=1 rewrites them.
 */
import { registerScenarioTests } from "./scenarios/script.js";
import { GroupScriptRunner } from "./scenarios/group/script.js";

registerScenarioTests({
  folder: "group",
  title: "group",
  newRunner: () => new GroupScriptRunner(),
});
