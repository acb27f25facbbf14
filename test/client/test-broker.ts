/**
 * A tiny Kafka server for the client tests: it frames and decodes requests with the codec,
 * answers ApiVersions from an ApiVersionsTable (KIP-511 included), and hands every other request
 * to the test, which replies when and how it likes (late, out of order, with a wrong correlation
 * id, or by closing the connection).
 */
import type { Address, Connection, Listener, Network } from "../../src/ports/index.js";
import {
  API_VERSIONS_KEY,
  ApiVersionsTable,
  FrameDecoder,
  answerApiVersions,
  decodeRequest,
  encodeResponse,
  type RequestHeader,
} from "../../src/protocol/index.js";

/** One request the test broker received, with the means to answer it. */
export interface ReceivedRequest {
  readonly header: RequestHeader;
  readonly body: Record<string, unknown>;
  readonly connection: Connection;
  /** Sends `body` as the response, under the request's correlation id unless one is given. */
  reply(body: object, correlationId?: number): void;
}

/** The versions the test broker serves, as ranges per API key. */
export type ServedRanges = readonly { apiKey: number; minVersion: number; maxVersion: number }[];

/** A test server on any Network; requests other than ApiVersions go to `onRequest`. */
export class TestBroker {
  readonly requests: ReceivedRequest[] = [];
  readonly apiVersionsSeen: number[] = [];
  readonly connections: Connection[] = [];
  onRequest: (request: ReceivedRequest) => void = () => {};
  private readonly table = new ApiVersionsTable();
  private listener: Listener | undefined;

  constructor(served: ServedRanges) {
    for (const range of served) this.table.register(range);
  }

  /** Starts listening on `address` of `network`; resolves to the bound address. */
  async listen(network: Network, address: Address): Promise<Address> {
    const listener = await network.listen(address, (connection) => this.accept(connection));
    this.listener = listener;
    return listener.address;
  }

  /** Stops listening and ends every accepted connection. */
  async close(): Promise<void> {
    await this.listener?.close();
    for (const connection of this.connections) connection.destroy();
  }

  private accept(connection: Connection): void {
    this.connections.push(connection);
    const decoder = new FrameDecoder();
    connection.attach({
      data: (chunk) => {
        for (const frame of decoder.push(chunk).frames) this.onFrame(connection, frame);
      },
      close: () => {},
    });
  }

  private onFrame(connection: Connection, frame: Uint8Array): void {
    const decoded = decodeRequest(frame, (key, version) => this.table.isSupported(key, version));
    if (decoded.kind === "unknownApi" || decoded.kind === "malformed") {
      connection.destroy();
      return;
    }
    const { header } = decoded;
    if (header.apiKey === API_VERSIONS_KEY) {
      this.apiVersionsSeen.push(header.apiVersion);
      const body = decoded.kind === "request" ? decoded.body : undefined;
      const answer = answerApiVersions({ header, body }, this.table);
      connection.write(
        encodeResponse(answer.header, API_VERSIONS_KEY, answer.apiVersion, answer.body),
      );
      return;
    }
    if (decoded.kind !== "request") {
      connection.destroy();
      return;
    }
    const reply = (body: object, correlationId = header.correlationId): void => {
      connection.write(encodeResponse({ correlationId }, header.apiKey, header.apiVersion, body));
    };
    const request = { header, body: decoded.body, connection, reply };
    this.requests.push(request);
    this.onRequest(request);
  }
}
