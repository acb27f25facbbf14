import { test } from "node:test";
import assert from "node:assert/strict";
import { Agent, request as httpRequest } from "node:http";
import type { Socket } from "node:net";
import type { LogFields, Logger } from "../ports/index.js";
import { HttpServer, type HttpServerOptions, type HttpServerRoute } from "./http-server.js";

interface Line {
  readonly level: string;
  readonly message: string;
  readonly fields: LogFields;
}

/** A logger that keeps its lines for the test to read. */
class KeptLogger implements Logger {
  readonly lines: Line[] = [];
  debug(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "debug", message, fields });
  }
  info(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "info", message, fields });
  }
  warn(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "warn", message, fields });
  }
  error(message: string, fields: LogFields = {}): void {
    this.lines.push({ level: "error", message, fields });
  }
  child(): Logger {
    return this;
  }
}

const routes: HttpServerRoute[] = [
  {
    method: "GET",
    path: "/hello",
    handle: (request) => ({
      status: 200,
      contentType: "text/plain; charset=utf-8",
      body: `hello ${request.headers["x-name"] ?? "world"} ✓\n`,
      headers: { "x-route": "hello" },
    }),
  },
  {
    method: "GET",
    path: "/async",
    handle: async () => ({ status: 201, contentType: "a/b", body: "" }),
  },
  {
    method: "GET",
    path: "/broken",
    handle: () => {
      throw new Error("disk on fire");
    },
  },
  { method: "GET", path: "/stuck", handle: () => new Promise(() => {}) },
];

async function start(options: Partial<HttpServerOptions> = {}) {
  const logger = new KeptLogger();
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, routes, logger, ...options });
  const url = (path: string): string => `http://127.0.0.1:${server.address.port}${path}`;
  return { server, logger, url };
}

/** Sends one request with node:http, the body written with the headers, and reads the answer. */
function send(
  port: number,
  options: { method: string; path: string; body: string; chunked: boolean },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = options.chunked ? {} : { "content-length": Buffer.byteLength(options.body) };
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("end", () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

test("serves a route's status, type, headers and UTF-8 body; port 0 is real", async () => {
  const { server, url } = await start();
  try {
    assert.ok(server.address.port > 0);
    const response = await fetch(url("/hello?ignored=1"), { headers: { "x-name": "sluice" } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(response.headers.get("x-route"), "hello");
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.equal(
      response.headers.get("content-length"),
      String(Buffer.byteLength("hello sluice ✓\n")),
    );
    assert.equal(await response.text(), "hello sluice ✓\n");
    const asynchronous = await fetch(url("/async"));
    assert.equal(asynchronous.status, 201);
    assert.equal(await asynchronous.text(), "");
  } finally {
    await server.close();
  }
});

test("HEAD runs the GET route and sends no body", async () => {
  const { server, url } = await start();
  try {
    const response = await fetch(url("/hello"), { method: "HEAD" });
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get("content-length"),
      String(Buffer.byteLength("hello world ✓\n")),
    );
    assert.equal(await response.text(), "");
  } finally {
    await server.close();
  }
});

test("an unknown path is 404 and a known path with another method is 405 with Allow", async () => {
  const { server, url } = await start();
  try {
    const missing = await fetch(url("/nowhere"));
    assert.equal(missing.status, 404);
    assert.equal(await missing.text(), "not found\n");
    const wrongMethod = await fetch(url("/hello"), { method: "DELETE" });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("allow"), "GET, HEAD");
    await wrongMethod.text();
  } finally {
    await server.close();
  }
});

test("a handler that throws gives 500 and is logged, and the server goes on serving", async () => {
  const { server, url, logger } = await start();
  try {
    const response = await fetch(url("/broken"));
    assert.equal(response.status, 500);
    assert.equal(await response.text(), "internal server error\n");
    const logged = logger.lines.filter((line) => line.level === "error");
    assert.equal(logged.length, 1);
    assert.equal(logged[0]?.message, "http handler failed");
    assert.equal(logged[0]?.fields["path"], "/broken");
    assert.equal((logged[0]?.fields["error"] as Error).message, "disk on fire");
    assert.equal((await fetch(url("/hello"))).status, 200);
  } finally {
    await server.close();
  }
});

test("a handler that never answers gives 503 after the handler timeout", async () => {
  const { server, url, logger } = await start({ handlerTimeoutMs: 1 });
  try {
    const response = await fetch(url("/stuck"));
    assert.equal(response.status, 503);
    assert.equal(await response.text(), "handler timed out\n");
    assert.ok(logger.lines.some((line) => line.message === "http handler timed out"));
  } finally {
    await server.close();
  }
});

test("a body over the limit gets 413 and a closed connection, declared or chunked", async () => {
  const { server } = await start({ requestBodyBytesMax: 16 });
  try {
    const port = server.address.port;
    const small = await send(port, {
      method: "GET",
      path: "/hello",
      body: "x".repeat(16),
      chunked: false,
    });
    assert.equal(small.status, 200);
    for (const chunked of [false, true]) {
      const large = await send(port, {
        method: "POST",
        path: "/hello",
        body: "x".repeat(64),
        chunked,
      });
      assert.equal(large.status, 413, `chunked: ${chunked}`);
      assert.equal(large.headers["connection"], "close");
      assert.equal(large.body, "request body larger than 16 bytes\n");
    }
  } finally {
    await server.close();
  }
});

test(
  "close ends idle keep-alive connections instead of waiting for their timeout",
  { timeout: 20_000 },
  async () => {
    // Keep-alive and grace far beyond the test's timeout: only closing idle connections can pass.
    const { server } = await start({ keepAliveTimeoutMs: 600_000, closeGraceMs: 600_000 });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // The agent emits "free" once the response has ended and it keeps the socket for reuse.
    const freed = new Promise<Socket>((resolve) => agent.once("free", resolve));
    const port = server.address.port;
    const outgoing = httpRequest({ host: "127.0.0.1", port, path: "/hello", agent }, (incoming) =>
      incoming.resume(),
    );
    outgoing.end();
    const socket = await freed;
    assert.equal(Object.values(agent.freeSockets).flat().length, 1, "kept alive");
    const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    // The agent unreferences a kept socket; referenced, it keeps the test alive until it closes.
    socket.ref();
    await server.close();
    await socketClosed;
    agent.destroy();
  },
);

test(
  "close lets a busy request finish, answers it with connection: close, then resolves",
  { timeout: 20_000 },
  async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered: () => void = () => {};
    const started = new Promise<void>((resolve) => (entered = resolve));
    const slow: HttpServerRoute = {
      method: "GET",
      path: "/slow",
      handle: async () => {
        entered();
        await gate;
        return { status: 200, contentType: "text/plain", body: "done" };
      },
    };
    const { server, url } = await start({ routes: [slow], closeGraceMs: 600_000 });
    const pending = fetch(url("/slow"));
    await started;
    const closed = server.close();
    release();
    const response = await pending;
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("connection"), "close");
    assert.equal(await response.text(), "done");
    await closed;
    assert.equal(server.close(), closed, "closing twice gives the same promise");
  },
);

test("a server started without routes holds its port and answers 503 until it serves", async () => {
  const logger = new KeptLogger();
  const server = await HttpServer.start({ host: "127.0.0.1", port: 0, logger });
  try {
    const url = `http://127.0.0.1:${server.address.port}/hello`;
    const early = await fetch(url);
    assert.equal(early.status, 503);
    assert.equal(early.headers.get("retry-after"), "1");
    await early.text();
    server.serveRoutes(routes);
    const served = await fetch(url);
    assert.equal(served.status, 200);
    assert.equal(await served.text(), "hello world ✓\n");
    assert.throws(() => server.serveRoutes(routes), /already has its routes/);
  } finally {
    await server.close();
  }
});
