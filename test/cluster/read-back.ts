/**
 * Reading a partition back with kcat after a fault test, and the checks every fault test makes
 * of what its producers were told: each acknowledged value stored exactly once, at the offset
 * reported, in the order acknowledged; no value stored twice.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Acknowledged } from "./producers.js";

const run = promisify(execFile);

/** Every record of `topic`-`partition` as kcat reads it from the beginning. */
export async function readPartition(
  bootstrap: string,
  target: { readonly topic: string; readonly partition: number },
): Promise<{ readonly offset: number; readonly value: string }[]> {
  const { stdout } = await run(
    "kcat",
    ["-C", "-b", bootstrap, "-t", target.topic, "-p", String(target.partition)].concat([
      "-o",
      "beginning",
      "-e",
      "-q",
      "-f",
      "%o %s\\n",
    ]),
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [offset, value] = line.split(" ");
      return { offset: Number(offset), value: value ?? "" };
    });
}

/** Fails unless `read` holds each of `acknowledged` once, where and in the order reported. */
export function checkReadBack(
  name: string,
  acknowledged: readonly Acknowledged[],
  read: readonly { readonly offset: number; readonly value: string }[],
): void {
  const offsets = new Map<string, number[]>();
  for (const { offset, value } of read) offsets.set(value, [...(offsets.get(value) ?? []), offset]);
  const twice = [...offsets].filter(([, at]) => at.length > 1);
  assert.deepEqual(twice, [], `${name}: no value is stored twice`);
  let previous = -1;
  for (const { value, offset } of acknowledged) {
    assert.deepEqual(offsets.get(value), [offset], `${name}: ${value} is at offset ${offset}`);
    assert.ok(offset > previous, `${name}: ${value} comes after the value acknowledged before`);
    previous = offset;
  }
}
