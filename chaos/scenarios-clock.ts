/**
 * Clock jumps: every node runs under libfaketime, whose offset it reads from a file of its own
 * (re-read at most once a second), so the wall clock of one node can jump forwards or backwards
 * by minutes while its monotonic clock, which timers use, runs on.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { faketimeLibrary } from "./capabilities.js";
import type { Scenario } from "./scenario.js";

const offsetFile = (dir: string) => join(dir, "faketime-offset");

export const clockJump: Scenario = {
  name: "clock-jump",
  description: "jump one node's wall clock by minutes (forwards or back) for 8 s, then back",
  requires: ["netns", "kcat", "faketime"],
  cluster: {
    env: (_nodeId, dir) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(offsetFile(dir), "+0\n");
      return {
        LD_PRELOAD: faketimeLibrary() ?? "",
        FAKETIME_TIMESTAMP_FILE: offsetFile(dir),
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
        FAKETIME_CACHE_DURATION: "1",
      };
    },
  },
  async round(context) {
    const nodeId = context.cluster.ids[context.pick(context.cluster.ids.length)] ?? 1;
    const node = context.cluster.node(nodeId);
    const seconds = (60 + context.pick(540)) * (context.pick(2) === 0 ? 1 : -1);
    const offset = `${seconds > 0 ? "+" : ""}${seconds}s`;
    context.note("clock-jump", `node ${nodeId} by ${offset}`);
    writeFileSync(offsetFile(node.dir), `${offset}\n`);
    await context.hold(8000);
    writeFileSync(offsetFile(node.dir), "+0\n");
    context.healed(`node ${nodeId}'s clock back`);
    await context.cluster.awaitFullIsr(context.topic, 90_000);
  },
};
