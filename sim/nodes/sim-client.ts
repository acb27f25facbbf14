/**
 * A client machine of the simulation: the project's protocol client (src/client) on its own
 * SimNode, with one connection per node it talks to. Every call ends in a ClientResult (an
 * answer, or why none came), as the client promises; `pause` waits simulated time.
 */
import {
  ClientConnection,
  clientOptions,
  type ClientResult,
  type RequestBody,
} from "../../src/client/index.js";
import type { ApiCodec } from "../../src/protocol/index.js";
import type { SimNode } from "../node.js";
import type { SimWorld } from "../world.js";
import { CLIENT_PORT, hostOf } from "./sim-nodes.js";

/** How long a simulated client waits for an answer before it counts the call as unanswered. */
const REQUEST_TIMEOUT_MS = 3000;

export class SimClient {
  readonly machine: SimNode;
  private readonly connections = new Map<number, ClientConnection>();

  constructor(
    private readonly world: SimWorld,
    readonly name: string,
  ) {
    this.machine = world.node(name);
  }

  /** Sends one request to node `nodeId`'s client listener. */
  call<Request extends object, Response extends object>(
    nodeId: number,
    api: ApiCodec<Request, Response>,
    body: RequestBody<Request>,
    maxVersion: number,
  ): Promise<ClientResult<Response>> {
    return this.connectionTo(nodeId).send(api, body, { maxVersion });
  }

  /** Resolves after `ms` of simulated time. */
  pause(ms: number): Promise<void> {
    return new Promise((resolve) => this.machine.timers.schedule(ms, resolve));
  }

  close(): void {
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
  }

  private connectionTo(nodeId: number): ClientConnection {
    let connection = this.connections.get(nodeId);
    if (connection === undefined) {
      const ports = {
        network: this.world.network.forNode(this.name),
        timers: this.machine.timers,
        clock: this.machine.clock,
        random: this.machine.random,
      };
      const options = clientOptions({ clientId: this.name, requestTimeoutMs: REQUEST_TIMEOUT_MS });
      connection = new ClientConnection(
        { host: hostOf(nodeId), port: CLIENT_PORT },
        ports,
        options,
      );
      this.connections.set(nodeId, connection);
    }
    return connection;
  }
}
