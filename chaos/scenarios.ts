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
import { clockJump } from "./scenarios-clock.js";
import { controllerMembership } from "./scenarios-membership.js";
import { reassignUnderFaults } from "./scenarios-reassign.js";
import { enospc, logDirFailure, powerLoss, powerLossTwo } from "./scenarios-disk.js";

export const SCENARIOS: readonly Scenario[] = [
  leaderKill,
  followerPause,
  followerIsolate,
  controllerLeaderKill,
  controllerMinority,
  rollingRestart,
  enospc,
  logDirFailure,
  clockJump,
  powerLoss,
  powerLossTwo,
  reassignUnderFaults,
  controllerMembership,
];
