/**
 * The brokers of a partition scenario and their lives: each broker id has one machine (a
 * simulated node and disk) for the whole scenario and a run of the broker on it while it is up
 * (BrokerProcess). A crash loses what its disk had not synced and every answer on its way to it;
 * a restart registers a new broker epoch with the controller and starts again from the disk:
 * the logs, their leader-epoch checkpoints and the replication-offset checkpoint that survived.
 */
import assert from "node:assert/strict";
import type { BrokerId } from "../../../src/common/index.js";
import type { SimFileSystem, SimNode } from "../../../sim/index.js";
import { BrokerProcess, LOG_DIR, type BrokerSettings } from "./broker.js";
import { ScriptedController } from "./controller.js";
import { HeldNetwork } from "./network.js";
import type { ScenarioWorld } from "./world.js";

interface BrokerSlot {
  readonly id: number;
  readonly machine: { readonly node: SimNode; readonly fs: SimFileSystem };
  /** Counts the runs of this broker; requests and proposals of an earlier run are lost. */
  run: number;
  process: BrokerProcess | undefined;
  /** While set, the broker does not apply the metadata log (its loader lags behind). */
  isMetadataPaused: boolean;
}

export class PartitionCluster {
  readonly controller: ScriptedController;
  readonly network: HeldNetwork;
  private readonly slots = new Map<number, BrokerSlot>();

  private constructor(
    readonly world: ScenarioWorld,
    private readonly settings: BrokerSettings,
  ) {
    this.controller = new ScriptedController(world);
    this.network = new HeldNetwork(world, {
      running: (id) => this.slots.get(id)?.process,
      currentRun: (id) => this.slot(id).run,
    });
  }

  /** Brokers 1..`brokerCount`, registered and running, with no topic yet. */
  static async start(
    world: ScenarioWorld,
    brokerCount: number,
    settings: BrokerSettings,
  ): Promise<PartitionCluster> {
    const cluster = new PartitionCluster(world, settings);
    for (let id = 1; id <= brokerCount; id++) {
      const machine = world.machine(`broker${id}`);
      cluster.slots.set(id, { id, machine, run: 0, process: undefined, isMetadataPaused: false });
    }
    for (const id of cluster.slots.keys()) await cluster.startProcess(id);
    return cluster;
  }

  get brokerIds(): number[] {
    return [...this.slots.keys()];
  }

  /** The running process of broker `id`, if it is up. */
  running(id: number): BrokerProcess | undefined {
    return this.slot(id).process;
  }

  /** The running process of broker `id`; fails when it is down. */
  process(id: number): BrokerProcess {
    const process = this.running(id);
    assert.ok(process !== undefined, `broker ${id} is down`);
    return process;
  }

  /** Which run of broker `id` is current. */
  runOf(id: number): number {
    return this.slot(id).run;
  }

  /** Commits `records` as one batch and lets every live broker not paused catch up with it. */
  async commit(records: Parameters<ScriptedController["append"]>[0]): Promise<void> {
    this.controller.append(records);
    await this.publish();
  }

  /** Every live broker whose metadata is not paused applies what it has not applied yet. */
  async publish(): Promise<void> {
    for (const slot of this.slots.values()) {
      if (slot.process !== undefined && !slot.isMetadataPaused) {
        await slot.process.catchUp(this.controller.batches);
      }
    }
  }

  async pauseMetadata(id: number): Promise<void> {
    this.slot(id).isMetadataPaused = true;
  }

  async catchUp(id: number): Promise<void> {
    const slot = this.slot(id);
    slot.isMetadataPaused = false;
    await slot.process?.catchUp(this.controller.batches);
  }

  /**
   * A power cut: the process stops at once, its disk keeps what was synced; requests held
   * towards it fail as their connections reset, and answers for its requests are lost.
   */
  async crash(id: number): Promise<void> {
    const slot = this.slot(id);
    assert.ok(slot.process !== undefined, `broker ${id} is already down`);
    slot.process = undefined;
    slot.run++;
    slot.machine.node.crash();
    await this.network.drop({ to: id }, `connection reset (${id} crashed)`);
  }

  /** From now on every call on broker `id`'s disk under its log dir fails with EIO. */
  failDisk(id: number): void {
    this.slot(id).machine.fs.injectFault({ code: "EIO", path: LOG_DIR });
  }

  /** A clean shutdown (everything flushed and checkpointed), then the machine goes down. */
  async stop(id: number): Promise<void> {
    await this.process(id).shutdown();
    await this.crash(id);
  }

  /** Starts broker `id` again from its disk, or from an empty log dir with `isEmpty`. */
  async restart(id: number, options: { readonly isEmpty: boolean }): Promise<void> {
    const slot = this.slot(id);
    assert.ok(slot.process === undefined, `broker ${id} is running`);
    slot.machine.node.restart();
    if (options.isEmpty) await this.world.run(wipe(slot.machine.fs));
    await this.startProcess(id);
  }

  private async startProcess(id: number): Promise<void> {
    const slot = this.slot(id);
    const run = slot.run;
    const isCurrent = () => slot.run === run && slot.process !== undefined;
    const brokerEpoch = this.controller.register(id);
    this.world.print(`controller: broker ${id} registered with broker epoch ${brokerEpoch}`);
    // The others learn the new registration (unless paused); the broker itself starts after.
    await this.publish();
    slot.process = await BrokerProcess.start({
      world: this.world,
      id,
      brokerEpoch,
      machine: slot.machine,
      settings: this.settings,
      links: {
        endpointOf: (leaderId: BrokerId) => this.network.endpoint(id, run, leaderId),
        alterPartitionSender: this.controller.senderFor(id, brokerEpoch, isCurrent),
      },
    });
    if (!slot.isMetadataPaused) await slot.process.catchUp(this.controller.batches);
  }

  private slot(id: number): BrokerSlot {
    const slot = this.slots.get(id);
    assert.ok(slot !== undefined, `there is no broker ${id}`);
    return slot;
  }
}

/** Empties the log dir, as a replaced disk: the broker formats it again at start. */
async function wipe(fs: SimFileSystem): Promise<void> {
  const names = (await fs.readdir("/").catch(() => [])) as string[];
  if (names.includes("data")) await fs.rmdir("/data", { recursive: true });
  await fs.syncDirectory("/");
}
