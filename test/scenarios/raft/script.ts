/**
 * The commands of the Raft scenario scripts (the script language is ../script.ts). See
 * README.md in this folder.
 */
import assert from "node:assert/strict";
import { ZERO_UUID } from "../../../src/common/index.js";
import {
  snapshotFooterBatch,
  type ProposeResult,
  type RaftRequest,
} from "../../../src/raft/index.js";
import { buildVoteRequest } from "../../../src/raft/request-builders.js";
import { checkFacts, optionsOf, type ScenarioRunner } from "../script.js";
import { Cluster, directoryOf } from "./cluster.js";

/** Runs one command against the cluster (created by `cluster`) and returns what it printed. */
export class ScriptRunner implements ScenarioRunner {
  private cluster: Cluster | null = null;

  run(line: string): string[] {
    const [command = "", ...args] = line.trim().split(/\s+/);
    if (command === "cluster") {
      this.cluster = new Cluster(parseClusterArgs(args));
      return [];
    }
    const cluster = this.cluster;
    assert.ok(cluster !== null, "a scenario starts with `cluster`");
    cluster.lines = [];
    this.dispatch(cluster, command, args);
    return cluster.lines;
  }

  private dispatch(cluster: Cluster, command: string, args: string[]): void {
    const id = (index: number): number => Number(args[index]);
    switch (command) {
      case "advance":
        cluster.nowMs += Number(args[0]);
        cluster.lines.push(`time ${cluster.nowMs}`);
        for (const [memberId, member] of cluster.members) {
          // `advance <ms> <ids>` ticks only the listed nodes; the others sleep through it.
          if (args.length > 1 && !args.slice(1).includes(String(memberId))) continue;
          cluster.apply(memberId, member.node.tick(cluster.nowMs));
        }
        return;
      case "tick":
        return cluster.apply(id(0), cluster.member(id(0)).node.tick(cluster.nowMs));
      case "deliver":
        return cluster.deliver(parseLink(args[0]));
      case "settle":
        // Delivers until nothing is in flight (bounded, so a message storm fails loudly).
        for (let round = 0; cluster.pending().length > 0; round++) {
          assert.ok(round < 100, "the cluster settles within 100 delivery rounds");
          cluster.deliver({});
        }
        return;
      case "drop":
        return cluster.drop(parseLink(args[0]));
      case "partition":
      case "heal":
        return cluster.setPartitioned(id(0), command === "partition");
      case "propose":
        return propose(cluster, id(0), args.slice(1));
      case "snapshot":
        return writeSnapshot(cluster, id(0), id(1));
      case "resign":
        return cluster.apply(id(0), cluster.member(id(0)).node.resign(cluster.nowMs));
      case "restart":
        return cluster.restart(id(0), id(0));
      case "pending":
        cluster.lines.push(...cluster.pending());
        return;
      case "state":
        cluster.lines.push(
          ...[...cluster.members.keys()].map((memberId) => describeState(cluster, memberId)),
        );
        return;
      case "check":
        return check(cluster, id(0), args.slice(1));
      default:
        return this.clientCommand(cluster, command, args);
    }
  }

  private clientCommand(cluster: Cluster, command: string, args: string[]): void {
    const to = Number(args[0]);
    const voterId = Number(args[1]);
    const listeners = [{ name: "CONTROLLER", host: `node${voterId}`, port: 9093 }];
    switch (command) {
      case "vote":
        return cluster.clientRequest(to, voteRequest(args));
      case "describe":
        return cluster.clientRequest(to, {
          api: "describeQuorum",
          body: {
            topics: [{ topicName: "__cluster_metadata", partitions: [{ partitionIndex: 0 }] }],
          },
        });
      case "add-voter":
        return cluster.clientRequest(to, {
          api: "addRaftVoter",
          body: {
            clusterId: "scenario",
            timeoutMs: 5000,
            voterId,
            voterDirectoryId: directoryOf(voterId),
            listeners,
          },
        });
      case "remove-voter":
        return cluster.clientRequest(to, {
          api: "removeRaftVoter",
          body: {
            clusterId: "scenario",
            voterId,
            voterDirectoryId: directoryOf(voterId) ?? ZERO_UUID,
          },
        });
      default:
        assert.fail(`unknown scenario command ${command}`);
    }
  }
}

/** `vote <to> candidate=<id> epoch=<e> last=<epoch>/<offset> [pre]`: a crafted Vote request. */
function voteRequest(args: string[]): Extract<RaftRequest, { api: "vote" }> {
  const options = optionsOf(args.slice(1));
  const [lastEpoch = 0, lastOffset = 0] = (options.get("last") ?? "0/0").split("/").map(Number);
  const candidateId = Number(options.get("candidate"));
  const body = buildVoteRequest({
    clusterId: "scenario",
    epoch: Number(options.get("epoch")),
    candidateKey: { id: candidateId, directoryId: null },
    voterKey: { id: Number(args[0]), directoryId: null },
    lastOffsetEpoch: lastEpoch,
    lastOffset,
    isPreVote: args.includes("pre"),
  });
  return { api: "vote", body };
}

function parseClusterArgs(args: string[]): {
  voters: number[];
  observers: number[];
  kraftVersion: 0 | 1;
  seed: number;
  snapshotChunkBytes?: number;
} {
  const options = optionsOf(args);
  const list = (text: string | undefined): number[] =>
    text === undefined || text === "" ? [] : text.split(",").map(Number);
  return {
    voters: list(options.get("voters")),
    observers: list(options.get("observers")),
    kraftVersion: options.get("kraft") === "1" ? 1 : 0,
    seed: Number(options.get("seed") ?? "1"),
    ...(options.has("chunk") ? { snapshotChunkBytes: Number(options.get("chunk")) } : {}),
  };
}

/** Parses `1->2`, `*->2`, `1->*` or nothing (everything). */
function parseLink(text: string | undefined): { from?: number; to?: number } {
  if (text === undefined) return {};
  const [from = "*", to = "*"] = text.split("->");
  return {
    ...(from === "*" ? {} : { from: Number(from) }),
    ...(to === "*" ? {} : { to: Number(to) }),
  };
}

/** `propose <id> [at=<offset>] <values...>`: `at` is the proposal's required base offset. */
function propose(cluster: Cluster, id: number, words: string[]): void {
  const at = words[0]?.startsWith("at=") === true ? Number(words[0].slice(3)) : undefined;
  const values = at === undefined ? words : words.slice(1);
  const records = values.map((value) => new TextEncoder().encode(value));
  const options = at === undefined ? {} : { requiredBaseOffset: at };
  const { result, output } = cluster.member(id).node.propose(cluster.nowMs, records, options);
  cluster.lines.push(`n${id}: ${describeProposal(result)}`);
  cluster.apply(id, output);
}

function describeProposal(result: ProposeResult): string {
  if (result.kind === "accepted") {
    return `accepted ${result.baseOffset}..${result.lastOffset} in epoch ${result.epoch}`;
  }
  if (result.reason === "offsetMismatch")
    return `refused (offsetMismatch, next ${result.nextOffset})`;
  return `refused (${result.reason})`;
}

function facts(cluster: Cluster, id: number): Record<string, string> {
  const { node } = cluster.member(id);
  return {
    role: node.state.kind,
    epoch: String(node.epoch),
    leader: String(node.leaderId ?? "none"),
    hw: String(node.highWatermark ?? "none"),
    leo: String(node.logEndOffset),
    start: String(node.logStartOffset),
    voters: node.voterIds().join(","),
  };
}

function describeState(cluster: Cluster, id: number): string {
  const known = facts(cluster, id);
  return `n${id}: ${known.role} ${Object.entries(known)
    .filter(([key]) => key !== "role")
    .map(([key, value]) => `${key}=${value}`)
    .join(" ")}`;
}

function check(cluster: Cluster, id: number, expectations: string[]): void {
  checkFacts(facts(cluster, id), expectations, `n${id} at ${cluster.nowMs} ms`);
}

/** Writes a snapshot as a state machine would: the header batch, no state, the footer. */
function writeSnapshot(cluster: Cluster, id: number, endOffset: number): void {
  const { node, disk } = cluster.member(id);
  const result = node.createSnapshot({ endOffset, lastContainedLogTimestamp: cluster.nowMs });
  if (!result.ok) {
    cluster.lines.push(`n${id}: snapshot refused (${result.reason})`);
    return;
  }
  const { snapshotId } = result;
  const footer = snapshotFooterBatch({
    baseOffset: 3,
    epoch: snapshotId.epoch,
    timestamp: cluster.nowMs,
  });
  const info = disk.writeSnapshot(snapshotId, [result.headerBatch, footer]);
  cluster.lines.push(`n${id}: wrote snapshot ${snapshotId.endOffset}-${snapshotId.epoch}`);
  cluster.apply(id, node.snapshotWritten(cluster.nowMs, info));
}
