import { test } from "node:test";
import assert from "node:assert/strict";
import { brokerId, uuidFromBase64, type Uuid } from "../common/index.js";
import { formatJavaDate, formatProperties, parseProperties } from "./java-properties.js";
import { MalformedFileError } from "./malformed-file-error.js";
import { MemoryFileSystem } from "./memory-file-system.test-support.js";
import {
  checkIdentity,
  formatMetaProperties,
  LogDirIdentityError,
  parseMetaProperties,
} from "./meta-properties.js";
import {
  readMetaProperties,
  verifyLogDirIdentity,
  writeMetaProperties,
} from "./meta-properties.driver.js";

// 2024-01-18T12:03:29Z, a Thursday.
const WRITTEN_AT_MS = 1705579409000;
const DIRECTORY_ID = uuidFromBase64("ABEiM0RVZneImaq7zN3u_w") as Uuid;

test("Java's date comment format is reproduced in UTC", () => {
  assert.equal(formatJavaDate(WRITTEN_AT_MS), "Thu Jan 18 12:03:29 UTC 2024");
  assert.equal(formatJavaDate(0), "Thu Jan 01 00:00:00 UTC 1970");
});

test("meta.properties is written as Kafka writes it", () => {
  const text = formatMetaProperties(
    {
      version: 1,
      clusterId: "Dz1DTnH3T0WL3dxJgZCkvg",
      nodeId: brokerId(1),
      directoryId: DIRECTORY_ID,
    },
    WRITTEN_AT_MS,
  );
  assert.equal(
    text,
    "#\n#Thu Jan 18 12:03:29 UTC 2024\ncluster.id=Dz1DTnH3T0WL3dxJgZCkvg\n" +
      "directory.id=ABEiM0RVZneImaq7zN3u_w\nnode.id=1\nversion=1\n",
  );
  assert.deepEqual(parseMetaProperties(text), {
    kind: "parsed",
    value: {
      version: 1,
      clusterId: "Dz1DTnH3T0WL3dxJgZCkvg",
      nodeId: 1,
      directoryId: DIRECTORY_ID,
    },
  });
});

test("a meta.properties written by Kafka parses, whatever the key order", () => {
  const kafkaWritten =
    "#\n#Tue Mar 05 10:21:33 UTC 2024\nnode.id=3\ndirectory.id=ABEiM0RVZneImaq7zN3u_w\n" +
    "version=1\ncluster.id=Dz1DTnH3T0WL3dxJgZCkvg\n";
  assert.deepEqual(parseMetaProperties(kafkaWritten), {
    kind: "parsed",
    value: {
      version: 1,
      clusterId: "Dz1DTnH3T0WL3dxJgZCkvg",
      nodeId: 3,
      directoryId: DIRECTORY_ID,
    },
  });
});

test("directory.id is optional, as in files written before Kafka 3.7", () => {
  const result = parseMetaProperties("#\n#date\nversion=1\ncluster.id=abc\nnode.id=0\n");
  assert.deepEqual(result, { kind: "parsed", value: { version: 1, clusterId: "abc", nodeId: 0 } });
});

test("meta.properties without node.id or cluster.id, or of version 0, is malformed", () => {
  for (const text of [
    "version=1\nnode.id=1\n",
    "version=1\ncluster.id=abc\n",
    "version=1\ncluster.id=abc\nnode.id=one\n",
    "version=1\ncluster.id=abc\nnode.id=-1\n",
    "version=0\ncluster.id=abc\nbroker.id=1\n",
    "cluster.id=abc\nnode.id=1\n",
    "version=1\ncluster.id=abc\nnode.id=1\ndirectory.id=not-a-uuid\n",
  ]) {
    assert.equal(parseMetaProperties(text).kind, "malformed", JSON.stringify(text));
  }
});

test("the properties parser reads the forms Java accepts", () => {
  const text = [
    "# a comment",
    "! another comment",
    "   spaced.key   =   spaced value   ",
    "colon.key: colon value",
    "space.key space value",
    "escaped\\=key=a\\:b\\\\c\\u0041",
    "continued=first \\",
    "    second",
    "empty.key=",
    "",
  ].join("\n");
  assert.deepEqual(
    [...parseProperties(text)],
    [
      ["spaced.key", "spaced value"],
      ["colon.key", "colon value"],
      ["space.key", "space value"],
      ["escaped=key", "a:b\\cA"],
      ["continued", "first second"],
      ["empty.key", ""],
    ],
  );
});

test("properties that need escaping survive a round trip", () => {
  const properties = new Map([
    ["key with spaces", " leading space"],
    ["k=:#!", "v=:#!\\\t"],
  ]);
  assert.deepEqual(parseProperties(formatProperties(properties, ["comment"])), properties);
});

test("a dir of another cluster or node is refused with the reason", () => {
  const found = { version: 1 as const, clusterId: "cluster-a", nodeId: brokerId(1) };
  assert.deepEqual(checkIdentity(found, { clusterId: "cluster-a", nodeId: brokerId(1) }), {
    kind: "match",
  });
  assert.deepEqual(checkIdentity(found, { clusterId: "cluster-b", nodeId: brokerId(1) }), {
    kind: "clusterIdMismatch",
    expected: "cluster-b",
    found: "cluster-a",
  });
  assert.deepEqual(checkIdentity(found, { clusterId: "cluster-a", nodeId: brokerId(2) }), {
    kind: "nodeIdMismatch",
    expected: 2,
    found: 1,
  });
});

test("a log dir's identity is written, read and verified on the file system", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/logs");
  assert.equal(await readMetaProperties(disk, "/logs"), undefined);
  assert.equal(
    await verifyLogDirIdentity(disk, "/logs", { clusterId: "c", nodeId: brokerId(1) }),
    undefined,
  );
  const identity = { version: 1 as const, clusterId: "c", nodeId: brokerId(1) };
  await writeMetaProperties(disk, "/logs", identity, WRITTEN_AT_MS);
  assert.deepEqual(await readMetaProperties(disk, "/logs"), identity);
  assert.deepEqual(
    await verifyLogDirIdentity(disk, "/logs", { clusterId: "c", nodeId: brokerId(1) }),
    identity,
  );
  await assert.rejects(
    verifyLogDirIdentity(disk, "/logs", { clusterId: "c", nodeId: brokerId(5) }),
    (error: unknown) => {
      assert.ok(error instanceof LogDirIdentityError);
      assert.equal(error.mismatch.kind, "nodeIdMismatch");
      assert.match(error.message, /node\.id 1.*node\.id 5/);
      return true;
    },
  );
});

test("an unreadable meta.properties is a MalformedFileError", async () => {
  const disk = new MemoryFileSystem();
  await disk.mkdir("/logs");
  await writeMetaProperties(disk, "/logs", { version: 1, clusterId: "c", nodeId: brokerId(1) }, 0);
  const handle = await disk.open("/logs/meta.properties", { truncate: true });
  await handle.write(new TextEncoder().encode("version=1\n"), 0);
  await handle.close();
  await assert.rejects(readMetaProperties(disk, "/logs"), MalformedFileError);
});
