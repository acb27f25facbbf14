/**
 * Runs the Raft scenario scripts in test/scenarios/raft/*.txt (see the README there). Each
 * command's printed lines must match the "> " lines under it; SCENARIO_REWRITE=1 rewrites them.
 */
import { registerScenarioTests } from "./scenarios/script.js";
import { ScriptRunner } from "./scenarios/raft/script.js";

registerScenarioTests({ folder: "raft", title: "Raft", newRunner: () => new ScriptRunner() });
