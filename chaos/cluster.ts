/**
 * A cluster of combined (broker and controller) nodes, each a process in its own namespace on
 * one bridge: formatted with one cluster id and started; what the harness asks it (partition
 * leaders and ISRs, the active controller) goes over the project's own client.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withConnection } from "../src/client/index.js";
import {
  describeQuorum,
  metadata,
  type ApiCodec,
  type MessageInput,
} from "../src/protocol/index.js";
import { clientPorts } from "../test/clients/sluice-process.js";
import { Network } from "./network.js";
import { NodeProcess, sluiceScript } from "./node-process.js";
import { onCleanUp, sh, waitFor } from "./system.js";

export const CLIENT_PORT = 9092;
export const CONTROLLER_PORT = 9093;
export const HTTP_PORT = 9644;

/** Settings every node gets: quick failure detection, a short lag time, RF 3 internals. */
export const BASE_SETTINGS: Readonly<Record<string, string>> = {
  "broker.session.timeout.ms": "3000",
  "broker.heartbeat.interval.ms": "500",
  "controller.quorum.fetch.timeout.ms": "1000",
  "replica.lag.time.max.ms": "5000",
  "offsets.topic.replication.factor": "3",
  "offsets.topic.num.partitions": "6",
  "group.initial.rebalance.delay.ms": "0",
  "min.insync.replicas": "2",
  "unclean.leader.election.enable": "false",
};

export interface PartitionState {
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
}

export interface ClusterOptions {
  readonly nodes: number;
  readonly settings?: Readonly<Record<string, string>>;
  /** Runs before formatting, e.g. to mount a file system at a node's data dir. */
  readonly prepare?: (node: NodeProcess) => Promise<void>;
  readonly env?: (nodeId: number, dir: string) => Readonly<Record<string, string>>;
  /**
   * A dynamic quorum (KIP-853) whose first voters are nodes 1..N (the others start as
   * observers), found through controller.quorum.bootstrap.servers; a static quorum of every
   * node when not set.
   */
  readonly initialVoters?: number;
}

export class Cluster {
  private constructor(
    readonly root: string,
    readonly network: Network,
    readonly nodes: readonly NodeProcess[],
    private readonly initialVoters: number | null,
  ) {}

  static async start(options: ClusterOptions): Promise<Cluster> {
    const ids = Array.from({ length: options.nodes }, (_, index) => index + 1);
    const root = mkdtempSync(join(tmpdir(), "sluice-chaos-"));
    const removeRoot = () => rmSync(root, { recursive: true, force: true, maxRetries: 20 });
    onCleanUp(`folder ${root}`, async () => removeRoot(), removeRoot);
    const network = await Network.create(ids);
    const nodes = ids.map((id) => {
      const dir = join(root, `node-${id}`);
      return new NodeProcess(id, dir, network.namespace(id), options.env?.(id, dir));
    });
    const cluster = new Cluster(root, network, nodes, options.initialVoters ?? null);
    const uuid = async () => (await sh(process.execPath, [sluiceScript(), "random-uuid"])).trim();
    const clusterId = await uuid();
    const initial: string[] = [];
    for (let id = 1; id <= (options.initialVoters ?? 0); id++) {
      initial.push(`${id}@${network.address(id)}:${CONTROLLER_PORT}:${await uuid()}`);
    }
    for (const node of nodes) {
      await options.prepare?.(node);
      node.writeConfig({ ...cluster.settingsOf(node.nodeId), ...options.settings });
      const isInitial = node.nodeId <= initial.length;
      const quorum =
        initial.length === 0
          ? []
          : isInitial
            ? ["--initial-controllers", initial.join(",")]
            : ["--no-initial-controllers"];
      await node.format(clusterId, quorum);
    }
    await Promise.all(nodes.map((node) => node.start()));
    return cluster;
  }

  private settingsOf(nodeId: number): Record<string, string> {
    const host = this.network.address(nodeId);
    const endpoint = (id: number) => `${this.network.address(id)}:${CONTROLLER_PORT}`;
    const quorum =
      this.initialVoters === null
        ? { "controller.quorum.voters": this.ids.map((id) => `${id}@${endpoint(id)}`).join(",") }
        : {
            "controller.quorum.bootstrap.servers": this.ids
              .slice(0, this.initialVoters)
              .map(endpoint)
              .join(","),
          };
    return {
      "process.roles": "broker,controller",
      "node.id": String(nodeId),
      listeners: `PLAINTEXT://${host}:${CLIENT_PORT},CONTROLLER://${host}:${CONTROLLER_PORT}`,
      "advertised.listeners": `PLAINTEXT://${host}:${CLIENT_PORT}`,
      "controller.listener.names": "CONTROLLER",
      ...quorum,
      "sluice.http.listener": `${host}:${HTTP_PORT}`,
      "log.dirs": join(this.root, `node-${nodeId}`, "data"),
      // The metadata log apart from the data, so that disk faults hit the partitions' dir only.
      "metadata.log.dir": join(this.root, `node-${nodeId}`, "meta"),
      ...BASE_SETTINGS,
    };
  }

  node(nodeId: number): NodeProcess {
    const found = this.nodes.find((node) => node.nodeId === nodeId);
    if (found === undefined) throw new Error(`no node ${nodeId}`);
    return found;
  }

  get ids(): number[] {
    return this.nodes.map((node) => node.nodeId);
  }

  bootstrap(): string {
    return this.ids.map((id) => `${this.network.address(id)}:${CLIENT_PORT}`).join(",");
  }

  /** The partitions of `topic` as a running, unpaused node's Metadata describes them. */
  async partitions(topic: string): Promise<Map<number, PartitionState>> {
    let problem: unknown = new Error("no node answered");
    for (const node of this.nodes.filter((each) => each.isRunning && !each.isPaused)) {
      try {
        const response = await this.ask(node.nodeId, CLIENT_PORT, metadata, 12, {
          topics: [{ name: topic }],
          allowAutoTopicCreation: false,
        });
        const found = response.topics.find((each) => each.name === topic);
        if (found === undefined || found.errorCode !== 0) continue;
        return new Map(
          found.partitions.map((p) => [
            p.partitionIndex,
            {
              leader: p.leaderId,
              leaderEpoch: p.leaderEpoch,
              replicas: p.replicaNodes,
              isr: p.isrNodes,
            },
          ]),
        );
      } catch (error) {
        problem = error;
      }
    }
    throw problem;
  }

  /** Waits until every partition of `topic` has a leader and all replicas in its ISR. */
  async awaitFullIsr(topic: string, deadlineMs: number): Promise<void> {
    await waitFor(
      `a full ISR of ${topic}`,
      async () => {
        const partitions = await this.partitions(topic);
        const full = [...partitions.values()].every(
          (p) => p.leader >= 0 && p.isr.length === p.replicas.length,
        );
        return partitions.size > 0 && full ? true : undefined;
      },
      deadlineMs,
    );
  }

  /** The Raft leader and the voters, as a running controller reports them; throws otherwise. */
  async quorum(): Promise<{ readonly leader: number; readonly voters: number[] }> {
    for (const node of this.nodes.filter((each) => each.isRunning && !each.isPaused)) {
      const response = await this.ask(node.nodeId, CONTROLLER_PORT, describeQuorum, 2, {
        topics: [{ topicName: "__cluster_metadata", partitions: [{ partitionIndex: 0 }] }],
      }).catch(() => undefined);
      const partition = response?.topics[0]?.partitions[0];
      // A node that has not caught up may answer without voters: ask the next one.
      const known = partition !== undefined && partition.currentVoters.length > 0;
      if (known && partition.leaderId >= 0) {
        return {
          leader: partition.leaderId,
          voters: partition.currentVoters.map((voter) => voter.replicaId).sort(),
        };
      }
    }
    throw new Error("no controller knows a leader");
  }

  /** The Raft leader as a running voter reports it, waiting up to 30 s for one. */
  async activeController(): Promise<number> {
    return waitFor("an active controller", async () => (await this.quorum()).leader, 30_000);
  }

  private async ask<Request extends object, Response extends object>(
    nodeId: number,
    port: number,
    api: ApiCodec<Request, Response>,
    maxVersion: number,
    body: MessageInput<Request>,
  ): Promise<Response> {
    const endpoint = { host: this.network.address(nodeId), port };
    const result = await withConnection(
      endpoint,
      clientPorts(),
      (connection) => connection.send(api, body, { maxVersion }),
      { requestTimeoutMs: 3000 },
    );
    if (result.kind !== "response") throw new Error(`node ${nodeId}: ${JSON.stringify(result)}`);
    return result.body;
  }
}
