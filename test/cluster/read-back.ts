/**
 * Reading a partition back with kcat after a fault test, and the checks every fault test makes
 * of what its producers were told (each acknowledged value stored exactly once, at the offset
 * reported, in the order acknowledged; no value stored twice) and of the replicas' files.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { SLUICE } from "../clients/sluice-process.js";
import { pollUntil } from "./cluster-process.js";
import type { Acknowledged } from "./producers.js";
import type { Member } from "./three-nodes.js";

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

/** The batches of `target` in each member's log dir, as `sluice dump-log --json` prints them. */
async function replicaBatches(
  members: readonly Member[],
  target: { readonly topic: string; readonly partition: number },
): Promise<string[][]> {
  const copies: string[][] = [];
  for (const member of members) {
    const dir = join(member.node.logDir, `${target.topic}-${target.partition}`);
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir)
      .filter((file) => file.endsWith(".log"))
      .sort()
      .map((file) => join(dir, file));
    const { stdout } = await run(process.execPath, [SLUICE, "dump-log", "--json", ...files], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const fields = ["baseOffset", "lastOffset", "partitionLeaderEpoch", "crc"];
    copies.push(
      stdout
        .split("\n")
        .filter((line) => line.startsWith('{"type":"batch"'))
        .map((line) => {
          const batch = JSON.parse(line) as Record<string, unknown>;
          return fields.map((field) => String(batch[field])).join(" ");
        }),
    );
  }
  return copies;
}

/**
 * Waits until every member that holds a copy of `target` holds the same batches (offsets,
 * epochs, CRCs); followers may still be fetching the last ones when a test stops writing.
 */
export async function awaitIdenticalReplicas(
  members: readonly Member[],
  target: { readonly topic: string; readonly partition: number },
): Promise<void> {
  await pollUntil(
    async () => {
      const [first, ...others] = await replicaBatches(members, target);
      const agree = first !== undefined && others.every((copy) => copy.join() === first.join());
      return agree ? true : undefined;
    },
    {
      deadlineMs: 20_000,
      intervalMs: 200,
      what: `the replicas of ${target.topic}-${target.partition} agree`,
    },
  );
}
