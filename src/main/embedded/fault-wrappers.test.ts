import { test } from "node:test";
import assert from "node:assert/strict";
import type { Connection, ConnectionHandlers, Timer, Timers } from "../../ports/index.js";
import { isFileSystemError } from "../../ports/index.js";
import { ManualClock } from "../../../sim/index.js";
import { NodeFileSystem, createTemporaryDirectory } from "../../adapters/index.js";
import { DelayedConnection } from "./delayed-connection.js";
import { FailingFileSystem } from "./failing-file-system.js";

/** Timers run by hand: `advanceBy` moves the clock and runs what is due, in time order. */
class ManualTimers implements Timers {
  private readonly due: { atMs: number; run: () => void; isCancelled: boolean }[] = [];
  constructor(readonly clock: ManualClock) {}
  schedule(delayMs: number, callback: () => void): Timer {
    const entry = { atMs: this.clock.monotonicMs() + delayMs, run: callback, isCancelled: false };
    this.due.push(entry);
    return { cancel: () => (entry.isCancelled = true) };
  }
  advanceBy(ms: number): void {
    const endMs = this.clock.monotonicMs() + ms;
    for (;;) {
      this.due.sort((a, b) => a.atMs - b.atMs);
      const next = this.due[0];
      if (next === undefined || next.atMs > endMs) break;
      this.due.shift();
      this.clock.advanceTo(Math.max(next.atMs, this.clock.monotonicMs()));
      if (!next.isCancelled) next.run();
    }
    this.clock.advanceTo(endMs);
  }
}

/** A connection that records what is written and lets the test deliver bytes. */
function recordingConnection() {
  const written: string[] = [];
  let handlers: ConnectionHandlers | undefined;
  const connection: Connection = {
    id: "c1",
    localAddress: { host: "127.0.0.1", port: 1 },
    remoteAddress: { host: "127.0.0.1", port: 2 },
    attach: (given) => (handlers = given),
    write: (data) => {
      const chunks = data instanceof Uint8Array ? [data] : data;
      written.push(chunks.map((chunk) => Buffer.from(chunk).toString()).join(""));
      return true;
    },
    pauseReading: () => undefined,
    resumeReading: () => undefined,
    close: () => written.push("<close>"),
    destroy: () => written.push("<destroy>"),
  };
  return { connection, written, deliver: (text: string) => handlers?.data(Buffer.from(text)) };
}

test("a slowed link holds bytes each way for its delay, in order; at 0 they pass at once", () => {
  const clock = new ManualClock();
  const timers = new ManualTimers(clock);
  let delayMs = 100;
  const inner = recordingConnection();
  const delayed = new DelayedConnection(inner.connection, { clock, timers }, () => delayMs);
  const received: string[] = [];
  delayed.attach({
    data: (chunk) => received.push(Buffer.from(chunk).toString()),
    close: () => {},
  });
  delayed.write(Buffer.from("a"));
  timers.advanceBy(50);
  inner.deliver("x");
  delayMs = 10; // a shorter delay never lets a later chunk overtake an earlier one
  delayed.write(Buffer.from("b"));
  delayed.close();
  timers.advanceBy(49);
  assert.deepEqual(inner.written, []);
  timers.advanceBy(1);
  assert.deepEqual(inner.written, ["a", "b", "<close>"]);
  assert.deepEqual(received, []);
  timers.advanceBy(50);
  assert.deepEqual(received, ["x"]);
  delayMs = 0;
  inner.deliver("y");
  assert.deepEqual(received, ["x", "y"]);
});

test("a failed dir refuses every call inside it with EIO, also on files already open", async () => {
  const root = await createTemporaryDirectory("sluice-failing-");
  const real = new NodeFileSystem();
  const disk = new FailingFileSystem(real, false);
  const logs = `${root}/logs`;
  await disk.mkdir(logs, { recursive: true });
  await disk.mkdir(`${root}/metadata`, { recursive: true });
  const file = await disk.open(`${logs}/segment`, { create: true });
  await file.append(Buffer.from("before"));
  disk.fail(logs);
  const isEio = (error: unknown) => isFileSystemError(error, "EIO");
  await assert.rejects(file.append(Buffer.from("after")), isEio);
  await assert.rejects(file.sync(), isEio);
  await assert.rejects(disk.open(`${logs}/other`, { create: true }), isEio);
  await assert.rejects(disk.readdir(logs), isEio);
  await (await disk.open(`${root}/metadata/log`, { create: true })).close();
  await file.close();
  disk.repair(logs);
  assert.deepEqual(await disk.readdir(logs), ["segment"]);
  await real.rmdir(root, { recursive: true });
});
