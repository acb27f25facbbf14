import { test } from "node:test";
import assert from "node:assert/strict";
import type { LogFields, Logger } from "../ports/index.js";
import {
  HttpServer,
  type HttpServerOptions,
  type HttpServerRoute,
  type HttpServerStreamRoute,
} from "./http-server.js";

const warnings: { message: string; fields: LogFields }[] = [];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: (message, fields = {}) => warnings.push({ message, fields }),
  error: () => {},
  child: () => logger,
};

/** A stream route that sends `hello` on opening and counts its ticks and closes. */
function countingRoute(path = "/events") {
  const counts = { opened: 0, ticks: 0, closed: 0 };
  const route: HttpServerStreamRoute = {
    kind: "stream",
    method: "GET",
    path,
    open: (request, sink) => {
      if (request.query["refuse"] === "yes") {
        const response = { status: 400, contentType: "text/plain", body: "refused\n" };
        return { kind: "refused", response };
      }
      counts.opened++;
      sink.send("event: hello\ndata: 1\n\n");
      return {
        kind: "open",
        stream: {
          tick: () => {
            counts.ticks++;
            if (counts.ticks === 2) sink.send(`event: tick\ndata: ${counts.ticks}\n\n`);
          },
          close: () => counts.closed++,
        },
      };
    },
  };
  return { route, counts };
}

async function start(routes: readonly HttpServerRoute[], options: Partial<HttpServerOptions>) {
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, logger, routes, ...options });
  const url = (path: string): string => `http://127.0.0.1:${server.address.port}${path}`;
  return { server, url };
}

/** Reads `body` until `isDone` holds of the text so far; fails if the stream ends first. */
async function readUntil(
  body: ReadableStream<Uint8Array> | null,
  isDone: (text: string) => boolean,
): Promise<string> {
  assert.ok(body !== null);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!isDone(text)) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the stream ended with: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    return text;
  } finally {
    reader.releaseLock();
  }
}

/** Waits, with a deadline, until `condition` holds; the server's work runs meanwhile. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = AbortSignal.timeout(10_000);
  while (!condition()) {
    assert.ok(!deadline.aborted, `never: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

test("a stream is text/event-stream: what it sent, its ticks, a comment when idle", async () => {
  const { route, counts } = countingRoute();
  const { server, url } = await start([route], { streamTickMs: 5 });
  const aborting = new AbortController();
  try {
    const response = await fetch(url("/events"), { signal: aborting.signal });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.equal(response.headers.get("cache-control"), "no-store");
    const text = await readUntil(response.body, (sofar) => sofar.includes("event: tick"));
    // The first tick sent nothing, so the stream got a comment line; the second sent an event.
    assert.equal(text, "event: hello\ndata: 1\n\n:\n\nevent: tick\ndata: 2\n\n");
    aborting.abort();
    await until(() => counts.closed === 1, "the stream is closed when its client goes");
    assert.equal(counts.opened, 1);
  } finally {
    await server.close();
  }
});

test("a stream may refuse with a plain response; HEAD opens none", async () => {
  const { route, counts } = countingRoute();
  const { server, url } = await start([route], {});
  try {
    const refused = await fetch(url("/events?refuse=yes"));
    assert.equal(refused.status, 400);
    assert.equal(await refused.text(), "refused\n");
    const head = await fetch(url("/events"), { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(counts.opened, 0);
  } finally {
    await server.close();
  }
});

test("past streamsMax a stream is refused with 503, and close ends the open ones", async () => {
  const { route, counts } = countingRoute();
  const { server, url } = await start([route], { streamsMax: 1 });
  const first = await fetch(url("/events"));
  await readUntil(first.body, (text) => text.includes("hello"));
  const second = await fetch(url("/events"));
  assert.equal(second.status, 503);
  assert.equal(second.headers.get("retry-after"), "5");
  await second.text();
  await server.close();
  assert.equal(counts.closed, 1);
  // The ended stream's body finishes (no further bytes, no error).
  const reader = first.body?.getReader();
  assert.ok(reader !== undefined);
  assert.equal((await reader.read()).done, true);
});

test("a client that does not read is ended once its unsent text passes the limit", async () => {
  warnings.length = 0;
  let closed = 0;
  const flood: HttpServerStreamRoute = {
    kind: "stream",
    method: "GET",
    path: "/flood",
    open: (_request, sink) => {
      for (let index = 0; index < 64; index++) sink.send(`data: ${"x".repeat(64 * 1024)}\n\n`);
      return { kind: "open", stream: { tick: () => {}, close: () => closed++ } };
    },
  };
  const { server, url } = await start([flood], { streamBufferBytesMax: 256 * 1024 });
  try {
    const response = await fetch(url("/flood"));
    assert.equal(response.status, 200);
    await until(() => closed === 1, "the slow stream is ended");
    assert.equal(warnings[0]?.message, "http event stream ended: the client does not keep up");
    await response.body?.cancel();
  } finally {
    await server.close();
  }
});
