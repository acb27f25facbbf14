/**
 * Reassignment under faults: four combined nodes, so that each partition's three replicas can
 * move; each round moves one replica of a partition to the node that has none (with `sluice
 * reassign execute`, as an operator would) and kills a random node with -9 while the move runs,
 * then waits until `sluice reassign verify` reports it complete and the ISR is full.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_PORT } from "./cluster.js";
import { sluiceScript } from "./node-process.js";
import type { FaultContext, Scenario } from "./scenario.js";
import { sh, succeeds, waitFor } from "./system.js";

async function startMove(context: FaultContext, partition: number, replicas: readonly number[]) {
  const plan = join(context.cluster.root, `reassign-${partition}-${replicas.join("-")}.json`);
  const partitions = [
    { topic: context.topic, partition, replicas, log_dirs: replicas.map(() => "any") },
  ];
  writeFileSync(plan, JSON.stringify({ version: 1, partitions }));
  const running = context.cluster.nodes.filter((node) => node.isRunning);
  const bootstrap = running
    .map((node) => `${context.cluster.network.address(node.nodeId)}:${CLIENT_PORT}`)
    .join(",");
  const args = ["reassign", "--bootstrap-server", bootstrap, "--reassignment-json-file", plan];
  await sh(process.execPath, [sluiceScript(), args[0] ?? "", "execute", ...args.slice(1)], 60_000);
  return { plan, bootstrap };
}

export const reassignUnderFaults: Scenario = {
  name: "reassign-under-faults",
  description: "move a replica to the fourth node while a node is killed -9, until complete",
  requires: ["netns", "kcat"],
  cluster: { nodes: 4 },
  async round(context) {
    const partitions = await context.cluster.partitions(context.topic);
    const partition = context.pick(partitions.size);
    const current = partitions.get(partition)?.replicas ?? [];
    const spare = context.cluster.ids.find((id) => !current.includes(id));
    const dropped = current[context.pick(current.length)];
    if (spare === undefined || dropped === undefined) throw new Error("no replica to move");
    const target = [...current.filter((id) => id !== dropped), spare];
    context.note("reassign", `partition ${partition}: [${current}] -> [${target}]`);
    const { plan, bootstrap } = await startMove(context, partition, target);
    const victim = context.cluster.ids[context.pick(context.cluster.ids.length)] ?? 1;
    context.note("kill", `node ${victim} during the move`);
    await context.cluster.node(victim).stop("SIGKILL");
    await context.hold(4000);
    await context.cluster.node(victim).start();
    context.healed(`node ${victim}`);
    const verify = ["reassign", "verify", "--bootstrap-server", bootstrap];
    await waitFor(
      `the move of partition ${partition}`,
      async () =>
        (await succeeds(process.execPath, [
          sluiceScript(),
          ...verify,
          "--reassignment-json-file",
          plan,
        ]))
          ? true
          : undefined,
      120_000,
      1000,
    );
    await context.cluster.awaitFullIsr(context.topic, 90_000);
  },
};
