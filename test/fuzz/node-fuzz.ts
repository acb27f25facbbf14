/**
 * Mutated frames against a running node (frame-mutations.ts), over several connections at once.
 * After each frame a connection sends an ApiVersions probe: the probe's answer means the node
 * took the frame up (answered it, or rightly did not, as an acks=0 Produce); a closed connection
 * means it refused the frame, and the next one opens a new connection. A frame whose connection
 * neither answers the probe nor closes within PARK_MS is "parked": the node holds it, as it may
 * hold a Fetch or a JoinGroup whose fields ask it to wait; the connection is dropped.
 */
import { connect, type Socket } from "node:net";
import { encodeRequest } from "../../src/protocol/request.js";
import { fixtureCorpus, mutate, Prng, sampleCorpus } from "./frame-mutations.js";

/** How long a connection waits for the probe's answer or its close. */
const PARK_MS = 3000;
const PROBE_CORRELATION_ID = 0x7ffffff0;

export interface NodeFuzzOptions {
  readonly port: number;
  readonly frames: number;
  readonly seed: number;
  readonly connections: number;
  /** Called every `every` frames with the report so far. */
  readonly progress?: { readonly every: number; readonly report: (sofar: FuzzReport) => void };
}

/** What became of the frames, by outcome, and of the parked ones by API key. */
export interface FuzzReport {
  sent: number;
  answered: number;
  closed: number;
  parked: number;
  readonly parkedByApiKey: Map<number, number>;
}

type Outcome = "answered" | "closed" | "parked";

const probe = Buffer.concat(
  encodeRequest(
    { apiKey: 18, apiVersion: 0, correlationId: PROBE_CORRELATION_ID, clientId: "fuzz-probe" },
    {},
  ),
);

/** One connection that sends frames one at a time and waits for each's outcome. */
class FuzzConnection {
  private socket: Socket | undefined;
  private buffered = Buffer.alloc(0);
  private waiter: ((outcome: Outcome) => void) | undefined;

  constructor(private readonly port: number) {}

  async send(frame: Uint8Array): Promise<Outcome> {
    const socket = this.socket ?? (await this.open());
    const size = Buffer.alloc(4);
    size.writeInt32BE(frame.length);
    const outcome = new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => this.settle("parked"), PARK_MS);
      this.waiter = (settled) => {
        clearTimeout(timer);
        resolve(settled);
      };
    });
    socket.write(Buffer.concat([size, frame, probe]));
    const settled = await outcome;
    if (settled !== "answered") this.drop();
    return settled;
  }

  close(): void {
    this.drop();
  }

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, "127.0.0.1");
      socket.once("connect", () => {
        this.socket = socket;
        this.buffered = Buffer.alloc(0);
        resolve(socket);
      });
      socket.once("error", (error) => {
        if (this.socket !== socket) reject(error);
      });
      socket.on("data", (chunk: Buffer) => this.take(chunk));
      socket.on("close", () => {
        if (this.socket === socket) this.settle("closed");
      });
    });
  }

  /** Reads whole response frames; the probe's answer settles the frame before it. */
  private take(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    while (this.buffered.length >= 8) {
      const size = this.buffered.readInt32BE(0);
      if (this.buffered.length < 4 + size) return;
      const correlationId = this.buffered.readInt32BE(4);
      this.buffered = this.buffered.subarray(4 + size);
      if (correlationId === PROBE_CORRELATION_ID) this.settle("answered");
    }
  }

  private settle(outcome: Outcome): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(outcome);
  }

  private drop(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }
}

/** Sends `options.frames` mutated frames to the node at `options.port`; resolves to the report. */
export async function fuzzNode(options: NodeFuzzOptions): Promise<FuzzReport> {
  const corpus = [...sampleCorpus(options.seed), ...fixtureCorpus()];
  const prng = new Prng(options.seed);
  const report: FuzzReport = {
    sent: 0,
    answered: 0,
    closed: 0,
    parked: 0,
    parkedByApiKey: new Map(),
  };
  const work = async (): Promise<void> => {
    const connection = new FuzzConnection(options.port);
    try {
      while (report.sent < options.frames) {
        const frame = mutate(corpus, prng);
        report.sent += 1;
        const isReportDue =
          options.progress !== undefined && report.sent % options.progress.every === 0;
        const outcome = await connection.send(frame);
        report[outcome] += 1;
        if (outcome === "parked") {
          const apiKey = frame.length >= 2 ? Buffer.from(frame).readInt16BE(0) : -1;
          report.parkedByApiKey.set(apiKey, (report.parkedByApiKey.get(apiKey) ?? 0) + 1);
        }
        if (isReportDue) options.progress?.report(report);
      }
    } finally {
      connection.close();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, work));
  return report;
}
