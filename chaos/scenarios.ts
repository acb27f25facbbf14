/** Every scenario, in the order `--list` prints them and a full run runs them. */
import type { Scenario } from "./scenario.js";
import {
  controllerLeaderKill,
  controllerMinority,
  followerIsolate,
  followerPause,
  leaderKill,
  rollingRestart,
} from "./scenarios-process.js";

export const SCENARIOS: readonly Scenario[] = [
  leaderKill,
  followerPause,
  followerIsolate,
  controllerLeaderKill,
  controllerMinority,
  rollingRestart,
];
