/**
 * Separate controller and broker processes for the multi-node tests: a controller-only node of
 * id 1 on a free port, and the settings a broker needs to reach it.
 */
import { join } from "node:path";
import { freePort } from "../clients/sluice-process.js";
import { ClusterNode, isAddressInUse } from "./cluster-process.js";

/** A started controller-only node (id 1) and its `controller.quorum.voters` value. */
export interface StartedController {
  readonly node: ClusterNode;
  readonly voters: string;
}

/** A controller-only node (id 1) on new free ports in `dir`, formatted and started. */
export async function startController(dir: string, clusterId: string): Promise<StartedController> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const node = new ClusterNode("controller", join(dir, `controller-${attempt}`));
    const voters = `1@127.0.0.1:${port}`;
    node.writeConfig({
      "process.roles": "controller",
      "node.id": "1",
      listeners: `CONTROLLER://127.0.0.1:${port}`,
      "controller.listener.names": "CONTROLLER",
      "controller.quorum.voters": voters,
      "sluice.http.listener": `127.0.0.1:${await freePort()}`,
    });
    await node.format(clusterId);
    try {
      await node.start();
      return { node, voters };
    } catch (error) {
      if (!isAddressInUse(error) || attempt >= 3) throw error;
    }
  }
}

/** The settings of a broker-only node that listens for clients on `port`. */
export async function brokerSettings(
  voters: string,
  port: number,
): Promise<Record<string, string>> {
  return {
    "process.roles": "broker",
    listeners: `PLAINTEXT://127.0.0.1:${port}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names": "CONTROLLER",
    "controller.quorum.voters": voters,
    "sluice.http.listener": `127.0.0.1:${await freePort()}`,
  };
}
