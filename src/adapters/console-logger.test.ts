import { test } from "node:test";
import assert from "node:assert/strict";
import type { Clock } from "../ports/index.js";
import { ConsoleLogger, formatValue } from "./console-logger.js";

const fixedClock: Clock = { nowMs: () => Date.UTC(2024, 0, 2, 3, 4, 5, 6), monotonicMs: () => 0 };

function capture(level?: "debug" | "info" | "warn" | "error") {
  const lines: string[] = [];
  const logger = new ConsoleLogger({
    ...(level === undefined ? {} : { level }),
    clock: fixedClock,
    write: (line) => lines.push(line),
  });
  return { lines, logger };
}

test("a log line is logfmt with time, level, message and fields", () => {
  const { lines, logger } = capture();
  logger.info("broker started", { nodeId: 1, listener: "PLAINTEXT://127.0.0.1:9092" });
  assert.deepEqual(lines, [
    'time=2024-01-02T03:04:05.006Z level=info msg="broker started" nodeId=1 ' +
      "listener=PLAINTEXT://127.0.0.1:9092",
  ]);
});

test("lines below the level are dropped", () => {
  const { lines, logger } = capture("warn");
  logger.debug("a");
  logger.info("b");
  logger.warn("c");
  logger.error("d");
  assert.deepEqual(
    lines.map((line) => line.split(" ")[1]),
    ["level=warn", "level=error"],
  );
});

test("a child logger adds its fields to every line and keeps the level", () => {
  const { lines, logger } = capture("info");
  const child = logger.child({ topic: "orders" }).child({ partition: 3 });
  child.debug("hidden");
  child.info("appended", { offset: 42 });
  assert.equal(lines.length, 1);
  assert.match(lines[0] ?? "", /msg=appended topic=orders partition=3 offset=42$/);
});

test("values that are not bare words are quoted so that lines can be parsed back", () => {
  assert.equal(formatValue("a b"), '"a b"');
  assert.equal(formatValue('say "hi"'), '"say \\"hi\\""');
  assert.equal(formatValue(""), '""');
  assert.equal(formatValue(true), "true");
  assert.equal(formatValue(12n), "12");
  assert.equal(formatValue({ a: 1 }), '"{\\"a\\":1}"');
  const error = Object.assign(new Error("disk gone"), { code: "EIO" });
  assert.equal(formatValue(error), '"Error: disk gone (EIO)"');
  const cyclic: Record<string, unknown> = {};
  cyclic["self"] = cyclic;
  assert.equal(formatValue(cyclic), '"[unserializable]"');
});

test("a json line holds the same fields, errors as their text", () => {
  const lines: string[] = [];
  const logger = new ConsoleLogger({
    clock: fixedClock,
    write: (line) => lines.push(line),
    format: "json",
  });
  const cause = Object.assign(new Error("disk gone"), { code: "EIO" });
  logger.child({ component: "log" }).error("write failed", { offset: 7n, cause, dirs: ["a"] });
  assert.deepEqual(lines.map((line) => JSON.parse(line) as unknown), [
    {
      time: "2024-01-02T03:04:05.006Z",
      level: "error",
      msg: "write failed",
      component: "log",
      offset: "7",
      cause: "Error: disk gone (EIO)",
      dirs: ["a"],
    },
  ]);
});

test("a component's level overrides the node's for its child loggers", () => {
  const lines: string[] = [];
  const logger = new ConsoleLogger({
    level: "warn",
    clock: fixedClock,
    write: (line) => lines.push(line),
    componentLevels: new Map([["replica-fetcher", "debug" as const]]),
  });
  logger.child({ component: "broker" }).info("hidden");
  const fetcher = logger.child({ component: "replica-fetcher" });
  fetcher.debug("shown");
  fetcher.child({ partition: 0 }).debug("shown too");
  assert.deepEqual(
    lines.map((line) => /msg=("[^"]*"|\S+)/.exec(line)?.[1]),
    ["shown", '"shown too"'],
  );
});
