import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { DelayedOperation } from "./delayed-operation.js";
import { ManualTime } from "./manual-time.test-support.js";
import { DelayedOperationPurgatory } from "./purgatory.driver.js";

/**
 * The purgatory against a naive model: a plain list of operations scanned in full on every step.
 * An operation watches some keys and is ready once the keys' counters grew by `need` in total.
 */

const KEYS = ["p-0", "p-1", "p-2"] as const;

type Command =
  | { kind: "add"; keys: string[]; delayMs: number; need: number }
  | { kind: "bump"; key: string }
  | { kind: "advance"; durationMs: number };

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant("add" as const),
    keys: fc.subarray([...KEYS], { minLength: 1 }),
    delayMs: fc.integer({ min: 1, max: 60 }),
    need: fc.integer({ min: 0, max: 4 }),
  }),
  fc.record({ kind: fc.constant("bump" as const), key: fc.constantFrom(...KEYS) }),
  fc.record({ kind: fc.constant("advance" as const), durationMs: fc.integer({ min: 0, max: 40 }) }),
);

interface ModelOp {
  readonly id: number;
  readonly keys: string[];
  readonly deadlineMs: number;
  readonly base: number;
  readonly need: number;
  isDone: boolean;
}

class Model {
  nowMs = 0;
  readonly counters = new Map<string, number>(KEYS.map((key) => [key, 0]));
  readonly ops: ModelOp[] = [];
  readonly log: string[] = [];

  progress(keys: readonly string[]): number {
    return keys.reduce((sum, key) => sum + (this.counters.get(key) ?? 0), 0);
  }

  add(id: number, keys: string[], delayMs: number, need: number): void {
    const op = { id, keys, deadlineMs: this.nowMs + delayMs, base: this.progress(keys), need };
    if (need === 0) this.log.push(`complete ${id}`);
    else this.ops.push({ ...op, isDone: false });
  }

  bump(key: string): void {
    this.counters.set(key, (this.counters.get(key) ?? 0) + 1);
    for (const op of this.ops) {
      if (op.isDone || !op.keys.includes(key)) continue;
      if (this.progress(op.keys) - op.base < op.need) continue;
      op.isDone = true;
      this.log.push(`complete ${op.id}`);
    }
  }

  advance(durationMs: number): void {
    this.nowMs += durationMs;
    const due = this.ops.filter((op) => !op.isDone && op.deadlineMs <= this.nowMs);
    due.sort((a, b) => a.deadlineMs - b.deadlineMs || a.id - b.id);
    for (const op of due) {
      op.isDone = true;
      this.log.push(`complete ${op.id}`, `expire ${op.id}`);
    }
  }
}

function realOperation(
  model: Model,
  id: number,
  command: Extract<Command, { kind: "add" }>,
  log: string[],
  calls: Map<number, number>,
): DelayedOperation {
  const base = model.progress(command.keys);
  return {
    delayMs: command.delayMs,
    tryComplete: () => model.progress(command.keys) - base >= command.need,
    onComplete: () => {
      calls.set(id, (calls.get(id) ?? 0) + 1);
      log.push(`complete ${id}`);
    },
    onExpiration: () => log.push(`expire ${id}`),
  };
}

test("the purgatory completes and expires exactly as a naive model does", () => {
  fc.assert(
    fc.property(
      fc.array(commandArbitrary, { maxLength: 80 }),
      fc.integer({ min: 0, max: 5 }),
      (commands, purgeInterval) => {
        const time = new ManualTime();
        const purgatory = new DelayedOperationPurgatory(
          { clock: time, timers: time },
          { name: "Model", purgeInterval },
        );
        const model = new Model();
        const log: string[] = [];
        const calls = new Map<number, number>();
        commands.forEach((command, id) => {
          if (command.kind === "add") {
            const op = realOperation(model, id, command, log, calls);
            model.add(id, command.keys, command.delayMs, command.need);
            purgatory.tryCompleteElseWatch(op, command.keys);
          } else if (command.kind === "bump") {
            model.bump(command.key);
            purgatory.checkAndComplete(command.key);
          } else {
            model.advance(command.durationMs);
            time.advance(command.durationMs);
          }
          assert.deepEqual(log, model.log);
          assert.ok(time.armedCount <= 1, "one timer at most");
        });
        for (const count of calls.values()) assert.equal(count, 1);
        const pending = model.ops.filter((op) => !op.isDone).length;
        assert.equal(purgatory.pendingCount, pending);
      },
    ),
    { seed: 20240611, numRuns: 300 },
  );
});
