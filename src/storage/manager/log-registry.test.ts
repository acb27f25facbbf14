import { test } from "node:test";
import assert from "node:assert/strict";
import { LogRegistry } from "./log-registry.js";

const partition = (topic: string, index: number) => ({ topic, partition: index });

function held(logDir: string, topic: string, index: number, isFuture = false) {
  return {
    log: `${logDir}/${topic}-${index}`,
    logDir,
    topicPartition: partition(topic, index),
    isFuture,
    lastFlushMs: 0,
  };
}

test("a dir failure removes its logs once and remembers its partitions as offline", () => {
  const registry = new LogRegistry<string>(["/a", "/b"], []);
  registry.add(held("/a", "t", 0));
  registry.add(held("/b", "t", 1));
  registry.add(held("/a", "t", 1, true));
  registry.addPendingDeletion({ logDir: "/a", path: "/a/x", dueMs: 5 });
  const removed = registry.markOffline("/a");
  assert.deepEqual(
    removed?.logs.map((entry) => entry.log),
    ["/a/t-0", "/a/t-1"],
  );
  assert.equal(removed?.isLastOnlineDir, false);
  assert.equal(registry.markOffline("/a"), undefined);
  assert.equal(registry.current(partition("t", 0)), undefined);
  assert.equal(registry.offlineDirOf(partition("t", 0)), "/a");
  assert.equal(registry.future(partition("t", 1)), undefined);
  assert.equal(registry.current(partition("t", 1))?.log, "/b/t-1");
  assert.deepEqual(registry.liveLogDirs(), ["/b"]);
  assert.deepEqual(registry.takeDueDeletions(10), []);
  assert.equal(registry.markOffline("/b")?.isLastOnlineDir, true);
});

test("placement counts current and future logs of online dirs", () => {
  const registry = new LogRegistry<string>(["/a", "/b", "/c"], ["/c"]);
  registry.add(held("/a", "t", 0));
  registry.add(held("/b", "t", 0, true));
  registry.add(held("/b", "t", 1));
  assert.deepEqual(registry.placementCandidates(), [
    { dir: "/a", isOnline: true, logCount: 1 },
    { dir: "/b", isOnline: true, logCount: 2 },
    { dir: "/c", isOnline: false, logCount: 0 },
  ]);
});

test("due deletions are handed out once, in order", () => {
  const registry = new LogRegistry<string>(["/a"], []);
  registry.addPendingDeletion({ logDir: "/a", path: "/a/1", dueMs: 10 });
  registry.addPendingDeletion({ logDir: "/a", path: "/a/2", dueMs: 20 });
  assert.deepEqual(
    registry.takeDueDeletions(15).map((entry) => entry.path),
    ["/a/1"],
  );
  assert.deepEqual(registry.takeDueDeletions(15), []);
  assert.deepEqual(
    registry.pending().map((entry) => entry.path),
    ["/a/2"],
  );
});

test("a lookup finds the current log, or the failed dir that held it, or nothing", () => {
  const registry = new LogRegistry<string>(["/a", "/b"], []);
  registry.add(held("/a", "t", 0));
  registry.add(held("/b", "t", 1));
  registry.markOffline("/b");
  assert.deepEqual(registry.lookup(partition("t", 0)), {
    kind: "online",
    log: "/a/t-0",
    logDir: "/a",
  });
  assert.deepEqual(registry.lookup(partition("t", 1)), { kind: "offlineDir", logDir: "/b" });
  assert.deepEqual(registry.lookup(partition("t", 2)), { kind: "notFound" });
});
