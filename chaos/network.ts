/**
 * A network namespace per node, joined by veth pairs on one bridge in the harness's namespace,
 * which holds the address clients use (`.254`). Link faults are iptables rules inside the nodes'
 * namespaces, so they cut node-to-node traffic only: clients still reach every node, as clients
 * outside a split do in the Jepsen analyses.
 */
import { randomBytes, randomInt } from "node:crypto";
import { onCleanUp, sh, shNow } from "./system.js";

/** The namespaces of one run: names and addresses per node id. */
export class Network {
  readonly bridge: string;
  private readonly prefix: string;
  private readonly subnet: string;
  private readonly rules = new Set<number>();

  private constructor(readonly tag: string) {
    this.bridge = `sc${tag}br`;
    this.prefix = `sc${tag}`;
    this.subnet = `10.${randomInt(200, 250)}.${randomInt(1, 250)}`;
  }

  /** Makes the bridge and one namespace per id in `nodeIds`; registers their removal. */
  static async create(nodeIds: readonly number[]): Promise<Network> {
    const network = new Network(randomBytes(3).toString("hex"));
    await network.makeBridge();
    for (const nodeId of nodeIds) await network.addNode(nodeId);
    return network;
  }

  namespace(nodeId: number): string {
    return `${this.prefix}n${nodeId}`;
  }

  address(nodeId: number): string {
    return `${this.subnet}.${nodeId}`;
  }

  private async makeBridge(): Promise<void> {
    await sh("ip", ["link", "add", this.bridge, "type", "bridge"]);
    const args = ["link", "del", this.bridge];
    onCleanUp(
      `bridge ${this.bridge}`,
      () => sh("ip", args).then(() => {}),
      () => shNow("ip", args),
    );
    await sh("ip", ["addr", "add", `${this.subnet}.254/24`, "dev", this.bridge]);
    await sh("ip", ["link", "set", this.bridge, "up"]);
  }

  private async addNode(nodeId: number): Promise<void> {
    const ns = this.namespace(nodeId);
    const hostSide = `${this.prefix}v${nodeId}`;
    await sh("ip", ["netns", "add", ns]);
    const remove = ["netns", "del", ns];
    onCleanUp(
      `namespace ${ns}`,
      () => sh("ip", remove).then(() => {}),
      () => shNow("ip", remove),
    );
    await sh("ip", ["link", "add", hostSide, "type", "veth", "peer", "name", "eth0", "netns", ns]);
    await sh("ip", ["link", "set", hostSide, "master", this.bridge, "up"]);
    const inNs = (args: string[]) => sh("ip", ["netns", "exec", ns, ...args]);
    await inNs(["ip", "addr", "add", `${this.address(nodeId)}/24`, "dev", "eth0"]);
    await inNs(["ip", "link", "set", "eth0", "up"]);
    await inNs(["ip", "link", "set", "lo", "up"]);
  }

  /** Drops what `from` sends to `to` (one way), with a rule in `from`'s and in `to`'s namespace. */
  async dropOneWay(from: number, to: number): Promise<void> {
    const rule = (ns: string, chain: string, flag: string, peer: string) =>
      sh("ip", ["netns", "exec", ns, "iptables", "-A", chain, flag, peer, "-j", "DROP"]);
    await rule(this.namespace(from), "OUTPUT", "-d", this.address(to));
    await rule(this.namespace(to), "INPUT", "-s", this.address(from));
    this.rules.add(from).add(to);
  }

  /** Cuts the link between `a` and `b` both ways. */
  async cut(a: number, b: number): Promise<void> {
    await this.dropOneWay(a, b);
    await this.dropOneWay(b, a);
  }

  /** Splits the nodes into `side` and `others`: no node of one side reaches one of the other. */
  async split(side: readonly number[], others: readonly number[]): Promise<void> {
    for (const a of side) for (const b of others) await this.cut(a, b);
  }

  /** Removes every link fault. */
  async heal(): Promise<void> {
    for (const nodeId of this.rules) {
      await sh("ip", ["netns", "exec", this.namespace(nodeId), "iptables", "-F"]);
    }
    this.rules.clear();
  }
}
