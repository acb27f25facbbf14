/**
 * `startCluster`: a whole Sluice cluster inside the calling process, for the tests of
 * applications that use Kafka. Each node is built by `startNode`, the composition root `sluice
 * start` runs, on the Node adapters, with two wrappers that let a test break things for real: the
 * cluster's network (cluster-network.ts: partitions and slow links between nodes) and a disk per
 * node whose partition log dir can fail (failing-file-system.ts). Data lives in a new temporary
 * folder, removed by `close`.
 */
import {
  ConsoleLogger,
  CryptoRandom,
  NodeFileSystem,
  NodeNetwork,
  NodeTimers,
  PrometheusRegistry,
  SystemClock,
  createTemporaryDirectory,
} from "../../adapters/index.js";
import { joinPath, uuidFromRandomBytes, uuidToBase64 } from "../../common/index.js";
import type { Address, Clock, Random, Timers } from "../../ports/index.js";
import { ClusterAdmin } from "./cluster-admin.js";
import { ClusterNetwork } from "./cluster-network.js";
import { ClusterMember } from "./cluster-member.js";
import { planNodes, type ClusterOptions, type NodeRole } from "./cluster-settings.js";
import { waitFor, withDeadline } from "./wait-for.js";

/** How long a start may take unless the options say otherwise. */
const START_TIMEOUT_MS = 30_000;

/** One node of the cluster as a test sees it. */
export interface ClusterNodeInfo {
  readonly id: number;
  readonly role: NodeRole;
  /** `host:port` of its client listener; undefined on a controller-only node. */
  readonly address: string | undefined;
  /** `host:port` of its controller listener; undefined on a broker-only node. */
  readonly controllerAddress: string | undefined;
  /** Its partition log dir (log.dirs) and its metadata log dir (metadata.log.dir). */
  readonly logDir: string;
  readonly metadataLogDir: string;
  readonly isRunning: boolean;
  /** Set when the node stopped on a failure it cannot survive (its metadata log's disk). */
  readonly fatalError: unknown;
}

export interface EmbeddedCluster extends AsyncDisposable {
  /** `host:port,host:port,...` of every broker, for any Kafka client. */
  readonly bootstrapServers: string;
  readonly nodes: readonly ClusterNodeInfo[];
  readonly clusterId: string;
  /** The folder holding every node's data, removed by `close`. */
  readonly dataDir: string;
  readonly admin: ClusterAdmin;
  /** Stops a node as SIGTERM stops `sluice start` (controlled shutdown); closes its ports. */
  stopNode(id: number): Promise<void>;
  /** Starts a stopped node again on its data and ports, repairing a failed log dir. */
  startNode(id: number): Promise<void>;
  /** Cuts every link between node `id` and the other nodes until `heal`; clients still reach it. */
  partitionNode(id: number): void;
  /** Holds back the bytes between nodes `a` and `b` by `delayMs` each way; 0 ends it. */
  slowLink(a: number, b: number, delayMs: number): void;
  /** Ends every partition and slow link. */
  heal(): void;
  /** Fails node `id`'s partition log dir with EIO from now until the node is started again. */
  failLogDir(id: number): void;
  /** Stops every node, closes the ports and removes the data; idempotent. */
  close(): Promise<void>;
}

/** The ports the cluster itself runs on (the nodes each get their own logger and metrics). */
interface ClusterPorts {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
}

/**
 * Starts a cluster in this process and resolves once every broker is registered, unfenced and
 * listed by every other broker. Rejects (having stopped what started and removed its folder)
 * when a node cannot start or the start takes longer than `startTimeoutMs`.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<EmbeddedCluster> {
  const planned = planNodes(options);
  const ports: ClusterPorts = {
    clock: new SystemClock(),
    timers: new NodeTimers(),
    random: new CryptoRandom(),
  };
  const host = options.host ?? "127.0.0.1";
  const real = new NodeNetwork();
  const network = new ClusterNetwork(real, ports);
  const dataDir = await createTemporaryDirectory("sluice-cluster-");
  const disk = new NodeFileSystem();
  const members: ClusterMember[] = [];
  const cluster = new Cluster({ ports, network, dataDir, members, disk, real });
  try {
    const places = [];
    for (const node of planned) {
      const dir = joinPath(dataDir, `node-${node.id}`);
      const hasClient = node.role !== "controller";
      const hasController = node.role !== "broker";
      places.push({
        node,
        clientPort: hasClient ? (await network.reserve(node.id, host)).port : undefined,
        controllerPort: hasController ? (await network.reserve(node.id, host)).port : undefined,
        logDir: joinPath(dir, "data"),
        metadataLogDir: joinPath(dir, "metadata"),
      });
    }
    const clusterId = newClusterId(ports.random);
    const logLevel = options.logLevel ?? "off";
    for (const place of places) {
      const logger = new ConsoleLogger({
        clock: ports.clock,
        level: logLevel === "off" ? "error" : logLevel,
        fields: { nodeId: place.node.id },
        ...(logLevel === "off" ? { write: () => undefined } : {}),
      });
      const nodePorts = {
        ...ports,
        logger,
        network: network.forNode(place.node.id),
        metrics: new PrometheusRegistry(),
      };
      members.push(
        new ClusterMember(place, {
          ports: nodePorts,
          disk,
          clusterId,
          cluster: { places, host, options },
        }),
      );
    }
    cluster.clusterId = clusterId;
    await cluster.startAll(options.startTimeoutMs ?? START_TIMEOUT_MS);
    return cluster;
  } catch (error) {
    await cluster.close();
    throw error;
  }
}

/** A cluster id as `sluice random-uuid` prints one (a random Uuid, drawn again if reserved). */
function newClusterId(random: Random): string {
  // A reserved draw has odds of about 2^-6, so a thousand in a row means a broken source.
  for (let draw = 0; draw < 1000; draw++) {
    const uuid = uuidFromRandomBytes(random.fill(new Uint8Array(16)));
    if (uuid !== undefined) return uuidToBase64(uuid);
  }
  throw new Error("no usable cluster id in 1000 random draws; the random source is broken");
}

class Cluster implements EmbeddedCluster {
  clusterId = "";
  readonly admin: ClusterAdmin;
  private closing: Promise<void> | undefined;
  private readonly members: ClusterMember[];
  private readonly network: ClusterNetwork;
  private readonly ports: ClusterPorts;

  constructor(
    private readonly parts: {
      readonly ports: ClusterPorts;
      readonly network: ClusterNetwork;
      readonly dataDir: string;
      readonly members: ClusterMember[];
      readonly disk: NodeFileSystem;
      readonly real: NodeNetwork;
    },
  ) {
    this.members = parts.members;
    this.network = parts.network;
    this.ports = parts.ports;
    this.admin = new ClusterAdmin({ ...parts.ports, network: parts.real }, () =>
      this.runningBrokers(),
    );
  }

  get dataDir(): string {
    return this.parts.dataDir;
  }

  get bootstrapServers(): string {
    return this.members.flatMap((member) => member.info.address ?? []).join(",");
  }

  get nodes(): readonly ClusterNodeInfo[] {
    return this.members.map((member) => member.info);
  }

  /** Starts every node at once (the voters need each other) and waits until all are ready. */
  async startAll(timeoutMs: number): Promise<void> {
    const ready = async (): Promise<void> => {
      await Promise.all(this.members.map((member) => member.start()));
      await this.awaitBrokersListed(timeoutMs);
    };
    await withDeadline(this.ports.timers, ready(), {
      what: "the cluster started",
      deadlineMs: timeoutMs,
    });
  }

  async stopNode(id: number): Promise<void> {
    await this.member(id).stop();
    this.network.disconnect(id);
    await this.network.release(id);
  }

  async startNode(id: number): Promise<void> {
    const member = this.member(id);
    if (!member.info.isRunning) await this.network.rebind(id);
    await member.start();
    await this.awaitBrokersListed(START_TIMEOUT_MS);
  }

  partitionNode(id: number): void {
    this.member(id);
    this.network.partition(id);
  }

  slowLink(a: number, b: number, delayMs: number): void {
    this.member(a);
    this.member(b);
    if (!Number.isFinite(delayMs) || delayMs < 0) {
      throw new RangeError(`a link's delay is a number of ms >= 0, got ${delayMs}`);
    }
    this.network.slow(a, b, delayMs);
  }

  heal(): void {
    this.network.heal();
  }

  failLogDir(id: number): void {
    this.member(id).failLogDir();
  }

  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private async closeOnce(): Promise<void> {
    this.admin.close();
    this.network.heal();
    // All at once and without controlled shutdowns: no leadership needs to move, and a
    // controlled shutdown would wait for a controller quorum that is stopping too.
    await Promise.all(this.members.map((member) => member.stop(false)));
    await this.network.close();
    await this.parts.disk.rmdir(this.parts.dataDir, { recursive: true });
  }

  private member(id: number): ClusterMember {
    const found = this.members.find((member) => member.info.id === id);
    if (found === undefined) throw new RangeError(`the cluster has no node ${id}`);
    return found;
  }

  private runningBrokers(): Address[] {
    return this.members.flatMap((member) =>
      member.info.isRunning && member.clientAddress !== undefined ? [member.clientAddress] : [],
    );
  }

  /** Waits until every running broker lists every running broker as unfenced. */
  private async awaitBrokersListed(deadlineMs: number): Promise<void> {
    const expected = this.members
      .filter((member) => member.info.isRunning && member.clientAddress !== undefined)
      .map((member) => member.info.id)
      .sort((a, b) => a - b)
      .join(",");
    await waitFor(this.ports, {
      what: `brokers ${expected} registered and unfenced`,
      deadlineMs,
      probe: async () => {
        for (const address of this.runningBrokers()) {
          const listed = await this.admin.brokersListedBy(address);
          if (listed.join(",") !== expected) return undefined;
        }
        return true;
      },
    });
  }
}
