/**
 * The scenarios whose faults hit processes and links: partition leaders and followers killed,
 * paused or cut off, the controller leader killed, paused or left on the minority side of a
 * split, and a rolling restart.
 */
import type { FaultContext, Scenario } from "./scenario.js";

const RECOVERY_MS = 90_000;

/** A random partition's leader and one of its followers, as Metadata names them now. */
async function roles(context: FaultContext) {
  const partitions = await context.cluster.partitions(context.topic);
  const partition = context.pick(partitions.size);
  const state = partitions.get(partition);
  if (state === undefined || state.leader < 0)
    throw new Error(`partition ${partition} has no leader`);
  const followers = state.replicas.filter((id) => id !== state.leader);
  const follower = followers[context.pick(followers.length)] ?? -1;
  return { partition, leader: state.leader, follower };
}

const settle = (context: FaultContext) => context.cluster.awaitFullIsr(context.topic, RECOVERY_MS);

export const leaderKill: Scenario = {
  name: "leader-kill",
  description: "kill -9 a partition leader under load, restart it after a few seconds",
  requires: ["netns", "kcat"],
  async round(context) {
    const { partition, leader } = await roles(context);
    context.note("kill", `node ${leader} (leader of ${partition})`);
    await context.cluster.node(leader).stop("SIGKILL");
    await context.hold(4000);
    await context.cluster.node(leader).start();
    context.healed(`node ${leader}`);
    await settle(context);
  },
};

export const followerPause: Scenario = {
  name: "follower-pause",
  description: "SIGSTOP a follower past replica.lag.time.max.ms (5 s), then SIGCONT",
  requires: ["netns", "kcat"],
  async round(context) {
    const { partition, follower } = await roles(context);
    context.note("pause", `node ${follower} (follower of ${partition})`);
    context.cluster.node(follower).pause();
    await context.hold(8000);
    context.cluster.node(follower).resume();
    context.healed(`node ${follower}`);
    await settle(context);
  },
};

export const followerIsolate: Scenario = {
  name: "follower-isolate",
  description: "cut a follower off (both ways, or only what reaches it) past the lag time",
  requires: ["netns", "iptables", "kcat"],
  async round(context) {
    const { partition, follower } = await roles(context);
    const others = context.cluster.ids.filter((id) => id !== follower);
    if (context.pick(2) === 0) {
      context.note("isolate", `node ${follower} (follower of ${partition}) from ${others}`);
      await context.cluster.network.split([follower], others);
    } else {
      // One way: the follower's fetches arrive, its leader's answers do not.
      context.note("one-way", `nodes ${others} to node ${follower} (follower of ${partition})`);
      for (const other of others) await context.cluster.network.dropOneWay(other, follower);
    }
    await context.hold(8000);
    await context.cluster.network.heal();
    context.healed("all links");
    await settle(context);
  },
};

export const controllerLeaderKill: Scenario = {
  name: "controller-leader-kill",
  description:
    "kill -9 the active controller (or, at random, SIGSTOP it for 6 s), then bring it back",
  requires: ["netns", "kcat"],
  async round(context) {
    const leader = await context.cluster.activeController();
    const node = context.cluster.node(leader);
    if (context.pick(2) === 0) {
      context.note("kill", `node ${leader} (controller leader)`);
      await node.stop("SIGKILL");
      await context.hold(4000);
      await node.start();
      context.healed(`node ${leader}`);
    } else {
      context.note("pause", `node ${leader} (controller leader)`);
      node.pause();
      await context.hold(6000);
      node.resume();
      context.healed(`node ${leader}`);
    }
    await settle(context);
  },
};

export const controllerMinority: Scenario = {
  name: "controller-minority",
  description: "split the active controller (with its partition leaders) from the majority",
  requires: ["netns", "iptables", "kcat"],
  async round(context) {
    const leader = await context.cluster.activeController();
    const others = context.cluster.ids.filter((id) => id !== leader);
    context.note(
      "split",
      `[${leader}] | [${others.join(",")}] (controller leader in the minority)`,
    );
    await context.cluster.network.split([leader], others);
    await context.hold(10_000);
    await context.cluster.network.heal();
    context.healed("all links");
    await settle(context);
  },
};

export const rollingRestart: Scenario = {
  name: "rolling-restart",
  description: "SIGTERM and restart each node in turn, waiting for a full ISR between nodes",
  requires: ["netns", "kcat"],
  async round(context) {
    for (const node of context.cluster.nodes) {
      context.note("restart", `node ${node.nodeId}`);
      await node.stop("SIGTERM");
      await node.start();
      await settle(context);
    }
  },
};
