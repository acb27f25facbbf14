/**
 * Controller membership under faults: four combined nodes with a dynamic quorum (KIP-853) whose
 * first voters are nodes 1 to 3, node 4 an observer. Each round changes the voters by one with
 * `sluice quorum add-controller` or `remove-controller` (as an operator would: asked of the
 * leader, retried while it refuses, for example while the newcomer has not caught up) while a
 * random node is killed with -9 and restarted; the round ends once the change is committed and
 * every partition has its full ISR again. The quorum keeps three or four voters.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONTROLLER_PORT } from "./cluster.js";
import { sluiceScript } from "./node-process.js";
import type { FaultContext, Scenario } from "./scenario.js";
import { sleep, succeeds, waitFor } from "./system.js";

/** The directory id of the node's metadata log dir, from its meta.properties. */
function directoryIdOf(metaDir: string): string {
  const text = readFileSync(join(metaDir, "meta.properties"), "utf8");
  const found = /^directory\.id=(.*)$/m.exec(text);
  if (found?.[1] === undefined) throw new Error(`${metaDir} has no directory.id`);
  return found[1].trim();
}

/** Asks the leader for `change` until it is done; the leader may move meanwhile. */
async function changeVoters(context: FaultContext, change: readonly string[]): Promise<void> {
  await waitFor(
    `quorum ${change.join(" ")}`,
    async () => {
      const { leader } = await context.cluster.quorum();
      const bootstrap = `${context.cluster.network.address(leader)}:${CONTROLLER_PORT}`;
      const args = [sluiceScript(), "quorum", ...change, "--bootstrap-controller", bootstrap];
      return (await succeeds(process.execPath, args)) ? true : undefined;
    },
    120_000,
    500,
  );
}

export const controllerMembership: Scenario = {
  name: "controller-membership",
  description: "add or remove a controller (dynamic quorum) while a node is killed -9",
  requires: ["netns", "kcat"],
  cluster: { nodes: 4, initialVoters: 3 },
  async round(context) {
    const { voters, leader } = await context.cluster.quorum();
    const ids = context.cluster.ids;
    let change: string[];
    if (voters.length >= 4) {
      const candidates = voters.filter((id) => id !== leader);
      const removed = candidates[context.pick(candidates.length)] ?? -1;
      const metaDir = join(context.cluster.node(removed).dir, "meta");
      context.note("remove-controller", `node ${removed} from [${voters}]`);
      change = ["remove-controller", "--controller-id", String(removed)];
      change.push("--controller-directory-id", directoryIdOf(metaDir));
    } else {
      const added = ids.find((id) => !voters.includes(id)) ?? -1;
      context.note("add-controller", `node ${added} to [${voters}]`);
      change = ["add-controller", "--config", context.cluster.node(added).configPath];
    }
    const changing = changeVoters(context, change);
    await sleep(200);
    const victim = ids[context.pick(ids.length)] ?? 1;
    context.note("kill", `node ${victim} during the change`);
    await context.cluster.node(victim).stop("SIGKILL");
    await context.hold(4000);
    await context.cluster.node(victim).start();
    context.healed(`node ${victim}`);
    await changing;
    await context.cluster.awaitFullIsr(context.topic, 90_000);
  },
};
