/**
 * Rewrites test/tidy/ratchet.json to the current sizes of the files over the soft limit. Run it
 * deliberately (`node dist/test/tidy/update-ratchet.js`) and review the diff: an entry that goes
 * up needs a reason in the commit message.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { computeRatchet } from "./ratchet.js";
import {
  analyseFiles,
  findRepositoryRoot,
  listFiles,
  ratchetPath,
  readRatchet,
} from "./repository.js";

const root = findRepositoryRoot(import.meta.url);
const before = readRatchet(root);
const after = computeRatchet(analyseFiles(root, listFiles(root)));
writeFileSync(join(root, ratchetPath), `${JSON.stringify(after, null, 2)}\n`);
const count = (ratchet: typeof after): number => Object.keys(ratchet.files).length;
console.log(`${ratchetPath}: ${count(before)} entries before, ${count(after)} now`);
