import { createServer } from "node:net";
import type { AddressInfo, Server, Socket } from "node:net";
import { FrameDecoder } from "../../src/protocol/framing.js";
import { decodeRequest, encodeResponse } from "../../src/protocol/request.js";
import type { DecodedRequest } from "../../src/protocol/request.js";
import { ApiVersionsTable, answerApiVersions } from "../../src/protocol/api-versions.js";

/**
 * A minimal fake Kafka broker for capturing what real clients send. It answers just enough for a
 * producer to go on (ApiVersions, Metadata naming itself as broker 1 and leader of `golden`
 * partition 0, Produce with errorCode 0), encoding every answer with the project's own codec, and
 * records every request frame it receives.
 */

/** The topic the fake broker leads. */
export const GOLDEN_TOPIC = "golden";

const API_KEY_PRODUCE = 0;
const API_KEY_FETCH = 1;
const API_KEY_METADATA = 3;
const API_KEY_API_VERSIONS = 18;

/** One request frame as received (without its size prefix), in arrival order. */
export interface CapturedFrame {
  readonly connection: number;
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly bytes: Uint8Array;
  readonly decoded: DecodedRequest;
}

/**
 * The versions the fake broker advertises: enough for kcat and kafkajs to produce. Fetch v4 is
 * listed, though never served, because librdkafka writes record batch v2 (magic 2) only to a
 * broker that offers both Produce v3+ and Fetch v4+; without it kcat falls back to magic 0.
 */
function advertisedTable(): ApiVersionsTable {
  const table = new ApiVersionsTable();
  table.register({ apiKey: API_KEY_PRODUCE, minVersion: 3, maxVersion: 7 });
  table.register({ apiKey: API_KEY_FETCH, minVersion: 4, maxVersion: 4 });
  table.register({ apiKey: API_KEY_METADATA, minVersion: 0, maxVersion: 4 });
  table.register({ apiKey: API_KEY_API_VERSIONS, minVersion: 0, maxVersion: 3 });
  return table;
}

function metadataBody(port: number, body: Record<string, unknown>): object {
  const requested = body["topics"];
  const names = Array.isArray(requested)
    ? requested.map((topic: { name?: unknown }) => String(topic.name))
    : [GOLDEN_TOPIC];
  return {
    throttleTimeMs: 0,
    brokers: [{ nodeId: 1, host: "127.0.0.1", port, rack: null }],
    clusterId: "sluice-golden",
    controllerId: 1,
    topics: names.map((name) => ({
      errorCode: 0,
      name,
      isInternal: false,
      partitions: [
        { errorCode: 0, partitionIndex: 0, leaderId: 1, replicaNodes: [1], isrNodes: [1] },
      ],
    })),
  };
}

function produceBody(body: Record<string, unknown>): object {
  type TopicData = { name: string; partitionData: { index: number }[] };
  const topics = (body["topicData"] ?? []) as TopicData[];
  return {
    responses: topics.map((topic) => ({
      name: topic.name,
      partitionResponses: topic.partitionData.map((partition) => ({
        index: partition.index,
        errorCode: 0,
        baseOffset: 0,
        logAppendTimeMs: -1,
        logStartOffset: 0,
      })),
    })),
    throttleTimeMs: 0,
  };
}

/** A running fake broker on 127.0.0.1 with an OS-chosen port. */
export class FakeBroker {
  readonly frames: CapturedFrame[] = [];
  private readonly table = advertisedTable();
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();
  private connectionCount = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Starts listening; resolves once the port is known. */
  static async start(): Promise<FakeBroker> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const broker = new FakeBroker(server, (server.address() as AddressInfo).port);
    server.on("connection", (socket) => broker.accept(socket));
    return broker;
  }

  private accept(socket: Socket): void {
    const connection = ++this.connectionCount;
    const decoder = new FrameDecoder();
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      const result = decoder.push(chunk);
      for (const frame of result.frames) this.serve(socket, connection, frame);
      if (result.kind === "failed") socket.destroy();
    });
  }

  private serve(socket: Socket, connection: number, frame: Uint8Array): void {
    const bytes = Uint8Array.from(frame);
    const decoded = decodeRequest(bytes, (key, version) => this.table.isSupported(key, version));
    const apiKey = bytes.length >= 2 ? new DataView(bytes.buffer).getInt16(0) : -1;
    const apiVersion = bytes.length >= 4 ? new DataView(bytes.buffer).getInt16(2) : -1;
    this.frames.push({ connection, apiKey, apiVersion, bytes, decoded });
    for (const wake of [...this.waiters]) wake();
    const chunks = this.answer(decoded);
    if (chunks === undefined) socket.destroy();
    else for (const chunk of chunks) socket.write(chunk);
  }

  /** The response chunks, [] for a request that gets none (acks 0), undefined to close. */
  private answer(decoded: DecodedRequest): Uint8Array[] | undefined {
    if (decoded.kind === "unsupportedVersion" && decoded.header.apiKey === API_KEY_API_VERSIONS) {
      const reply = answerApiVersions({ header: decoded.header, body: undefined }, this.table);
      return encodeResponse(reply.header, API_KEY_API_VERSIONS, reply.apiVersion, reply.body);
    }
    if (decoded.kind !== "request") return undefined;
    const { header, body } = decoded;
    const respond = (reply: object): Uint8Array[] =>
      encodeResponse(header, header.apiKey, header.apiVersion, reply);
    switch (header.apiKey) {
      case API_KEY_API_VERSIONS: {
        const reply = answerApiVersions({ header, body }, this.table);
        return encodeResponse(reply.header, API_KEY_API_VERSIONS, reply.apiVersion, reply.body);
      }
      case API_KEY_METADATA:
        return respond(metadataBody(this.port, body));
      case API_KEY_PRODUCE:
        return body["acks"] === 0 ? [] : respond(produceBody(body));
      default:
        return undefined;
    }
  }

  /**
   * Resolves once a captured frame satisfies `predicate`, or rejects after `deadlineMs`, so a
   * client that never sends it fails the run instead of hanging it.
   */
  waitForFrame(predicate: (frame: CapturedFrame) => boolean, deadlineMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!this.frames.some(predicate)) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`no matching frame within ${deadlineMs} ms`));
      }, deadlineMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Closes every connection and the listener. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
