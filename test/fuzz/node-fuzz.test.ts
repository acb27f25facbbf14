/**
 * Mutated frames of every API and version against a running node (node-fuzz-check.ts): each is
 * answered or closes its connection (or, for a request that may wait, is held); afterwards the
 * node answers a new connection, its resident memory stayed under RSS_BYTES_MAX and every record
 * acknowledged before the fuzz reads back unchanged. `npm run fuzz` runs the same with 1,000,000
 * frames and bounds the event-loop delay too.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { SluiceProcess } from "../clients/sluice-process.js";
import { checkOutcomes, fuzzAndCheck } from "./node-fuzz-check.js";

const FRAMES = 5000;
const SEED = 0x5eed_0f_f0;
/** The bound on the node's resident memory while it is fuzzed. */
const RSS_BYTES_MAX = 1024 * 1024 * 1024;

let node: SluiceProcess;

before(async () => {
  node = await SluiceProcess.create([]);
  await node.start();
});

after(async () => {
  if (node !== undefined) await node.destroy();
});

test(`a node survives ${FRAMES} mutated frames and keeps its acknowledged records`, async () => {
  const run = await fuzzAndCheck(node, { frames: FRAMES, seed: SEED, connections: 4 });
  checkOutcomes(run.report, FRAMES);
  assert.ok(run.rssBytesMax > 0 && run.rssBytesMax < RSS_BYTES_MAX, `rss ${run.rssBytesMax}`);
});
