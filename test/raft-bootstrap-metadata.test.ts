import { test } from "node:test";
import assert from "node:assert/strict";
import { MalformedFileError } from "../src/storage/index.js";
import { MemoryFileSystem } from "../src/storage/memory-file-system.test-support.js";
import {
  BOOTSTRAP_METADATA_FILE,
  readBootstrapMetadata,
  writeBootstrapMetadata,
} from "../src/raft/index.js";

const DIR = "/meta";
const values = [new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])];

test("the bootstrap file gives back its record values, without the control records", async () => {
  const fs = new MemoryFileSystem();
  await fs.mkdir(DIR, { recursive: true });
  assert.equal(await readBootstrapMetadata(fs, DIR), undefined, "no file, no bootstrap");
  await writeBootstrapMetadata(fs, { metadataLogDir: DIR, records: values, timestamp: 7 });
  const read = await readBootstrapMetadata(fs, DIR);
  assert.deepEqual(
    read?.map((value) => [...value]),
    [
      [1, 2, 3],
      [4, 5],
    ],
  );
});

test("a bootstrap file cut short is malformed, not a crash", async () => {
  const fs = new MemoryFileSystem();
  await fs.mkdir(DIR, { recursive: true });
  await writeBootstrapMetadata(fs, { metadataLogDir: DIR, records: values, timestamp: 7 });
  const path = `${DIR}/${BOOTSTRAP_METADATA_FILE}`;
  const size = (await fs.stat(path))?.size ?? 0;
  const handle = await fs.open(path, {});
  await handle.truncate(size - 5);
  await handle.close();
  await assert.rejects(readBootstrapMetadata(fs, DIR), MalformedFileError);
});
