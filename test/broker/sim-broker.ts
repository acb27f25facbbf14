/**
 * A broker with ApiVersions on the simulated network, and a raw client that frames and decodes
 * responses, for the connection-layer tests.
 */
import type { Address, Clock, Connection, Network } from "../../src/ports/index.js";
import {
  FrameDecoder,
  decodeResponse,
  encodeRequest,
  responseCorrelationId,
} from "../../src/protocol/index.js";
import { Scheduler, SimNetwork, settle, type SimNetworkOptions } from "../../sim/index.js";
import {
  RequestRouter,
  SocketServer,
  registerApiVersions,
  type RequestQuota,
  type SocketServerConfig,
} from "../../src/broker/index.js";
import { MemoryLogger, MemoryMetrics } from "../../src/broker/network/test-doubles.test-support.js";

/** A client end that frames what it receives and decodes responses on demand. */
export class RawClient {
  readonly frames: Uint8Array[] = [];
  isClosed = false;
  private readonly decoder = new FrameDecoder();

  constructor(readonly connection: Connection) {
    connection.attach({
      data: (chunk) => {
        for (const frame of this.decoder.push(chunk).frames) this.frames.push(frame);
      },
      close: () => (this.isClosed = true),
    });
  }

  /** Sends one request. */
  send(apiKey: number, apiVersion: number, correlationId: number, body: object = {}): void {
    this.connection.write(
      encodeRequest({ apiKey, apiVersion, correlationId, clientId: "raw-client" }, body),
    );
  }

  /** The correlation ids of the responses so far, in arrival order. */
  correlationIds(): number[] {
    return this.frames.map((frame) => responseCorrelationId(frame) ?? -1);
  }

  /** Decodes response `index` as a response to (apiKey, apiVersion). */
  body(index: number, apiKey: number, apiVersion: number): Record<string, unknown> {
    const frame = this.frames[index];
    if (frame === undefined) throw new Error(`no response ${index}`);
    const decoded = decodeResponse(frame, apiKey, apiVersion);
    if (decoded.kind !== "response") throw decoded.error;
    return decoded.body;
  }
}

/** A broker with ApiVersions on a simulated network, plus what tests need to look inside. */
export async function startSimBroker(
  options: {
    seed?: number;
    config?: Partial<SocketServerConfig>;
    network?: SimNetworkOptions;
    register?: (router: RequestRouter, scheduler: Scheduler) => void;
    /** The router's request-time quota, built on the broker's clock. */
    requestQuota?: (clock: Clock) => RequestQuota;
  } = {},
) {
  const scheduler = new Scheduler({ seed: options.seed ?? 1 });
  const simNetwork = new SimNetwork(scheduler, options.network ?? {});
  const node = scheduler.node("broker");
  const logger = new MemoryLogger();
  const metrics = new MemoryMetrics();
  const fatalErrors: unknown[] = [];
  const requestQuota = options.requestQuota?.(node.clock);
  const router = new RequestRouter(
    requestQuota === undefined ? { logger } : { logger, requestQuota },
  );
  registerApiVersions(router);
  options.register?.(router, scheduler);
  const ports = { network: simNetwork.forNode("broker"), clock: node.clock, timers: node.timers };
  const server = new SocketServer({ ...ports, logger, metrics }, router, {
    config: options.config ?? {},
    onFatalError: (error) => fatalErrors.push(error),
  });
  const address = await server.listen("PLAINTEXT", { host: "broker", port: 9092 });
  let clients = 0;
  /** Connects from host `fromHost`, by default a host of its own. */
  const connect = async (fromHost?: string): Promise<RawClient> => {
    const network: Network = simNetwork.forNode(fromHost ?? `client-${clients++}`);
    return new RawClient(await settle(scheduler, network.connect(address as Address)));
  };
  return { scheduler, simNetwork, server, router, logger, metrics, fatalErrors, connect };
}
