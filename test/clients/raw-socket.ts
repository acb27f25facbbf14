/**
 * A raw TCP client for the connection-limit tests: it writes frames made by the project's
 * protocol encoder as they are, counts the response frames it gets (or reads none at all), and
 * waits for a count with a deadline; and a process's peak resident size.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { FrameDecoder } from "../../src/protocol/index.js";
import { withDeadline } from "./sluice-process.js";

export class RawSocket {
  readonly frames: Uint8Array[] = [];
  private readonly decoder = new FrameDecoder();
  private waiters: Array<() => void> = [];
  isClosed = false;

  private constructor(readonly socket: Socket) {
    socket.on("close", () => {
      this.isClosed = true;
      this.wake();
    });
    // A reset from the node ends the socket; the tests look at isClosed.
    socket.on("error", () => undefined);
  }

  /**
   * Connects to `port` on loopback. A socket that `isReading` counts response frames; one that
   * does not never reads, so that its responses pile up in the node's send buffers.
   */
  static async open(port: number, options: { readonly isReading: boolean }): Promise<RawSocket> {
    const socket = connect({ host: "127.0.0.1", port, noDelay: true });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    const raw = new RawSocket(socket);
    if (options.isReading) {
      socket.on("data", (chunk: Buffer) => {
        raw.frames.push(...raw.decoder.push(chunk).frames);
        raw.wake();
      });
    } else {
      socket.pause();
    }
    return raw;
  }

  /** Writes `chunks`; resolves once the socket took them (its buffer drained). */
  async write(chunks: readonly Uint8Array[]): Promise<void> {
    let hasRoom = true;
    for (const chunk of chunks) hasRoom = this.socket.write(chunk);
    if (!hasRoom && !this.isClosed) {
      await new Promise<void>((resolve) => {
        this.socket.once("drain", resolve);
        this.socket.once("close", resolve);
      });
    }
  }

  /** Resolves once `count` responses arrived; rejects past `deadlineMs` or on a close. */
  async waitForFrames(count: number, deadlineMs: number): Promise<void> {
    const arrived = new Promise<void>((resolve, reject) => {
      const check = (): void => {
        if (this.frames.length >= count) resolve();
        else if (this.isClosed) reject(new Error(`closed after ${this.frames.length} responses`));
        else this.waiters.push(check);
      };
      check();
    });
    await withDeadline(arrived, deadlineMs, () => `${this.frames.length} of ${count} responses`);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

/** The node's peak resident set size so far, in bytes. */
export function peakResidentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  assert.ok(match?.[1] !== undefined, "VmHWM in /proc/<pid>/status");
  return Number(match[1]) * 1024;
}
