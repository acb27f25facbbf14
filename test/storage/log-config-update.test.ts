import { test } from "node:test";
import assert from "node:assert/strict";
import { AssertionError } from "../../src/common/index.js";
import { readBatchHeader } from "../../src/protocol/index.js";
import { LogHarness, makeBatch, testConfig } from "./log-harness.js";

async function appendBatches(
  harness: LogHarness,
  log: Awaited<ReturnType<LogHarness["open"]>>,
  options: { readonly count: number; readonly tag: string; readonly timestamp?: number },
): Promise<void> {
  for (let index = 0; index < options.count; index++) {
    const batch = makeBatch({
      count: 2,
      tag: `${options.tag}${index}`,
      timestamp: options.timestamp ?? 0,
    });
    await harness.run(log.appendAsLeader(batch, { leaderEpoch: 0 }));
  }
}

test("a smaller segment.bytes set on an open log rolls its next appends", async () => {
  const harness = new LogHarness(31);
  const log = await harness.open(testConfig());
  await appendBatches(harness, log, { count: 6, tag: "before" });
  assert.equal(log.segmentCount, 1, "the default segment.bytes holds every batch");
  log.updateConfig(testConfig({ segmentBytes: 300 }));
  assert.equal(log.config.segmentBytes, 300);
  assert.equal(log.segmentCount, 1, "the active segment stays until the next roll decision");
  await appendBatches(harness, log, { count: 6, tag: "after" });
  const segments = log.segments();
  assert.ok(segments.length >= 3, `${segments.length} segments after the change`);
  for (const segment of segments.slice(1, -1))
    assert.ok(segment.sizeInBytes <= 300, "each segment rolled since holds at most 300 bytes");
});

test("retention set on an open log deletes what the old config kept", async () => {
  const harness = new LogHarness(32);
  const log = await harness.open(testConfig({ segmentBytes: 300, retentionMs: -1 }));
  for (let index = 0; index < 6; index++)
    await appendBatches(harness, log, { count: 1, tag: `r${index}`, timestamp: index * 5_000 });
  const nowMs = 60_000;
  assert.equal(await harness.run(log.deleteOldSegments(nowMs, log.logEndOffset)), 0);
  log.updateConfig(testConfig({ segmentBytes: 300, retentionMs: 10_000 }));
  const deleted = await harness.run(log.deleteOldSegments(nowMs, log.logEndOffset));
  assert.ok(deleted >= 1, "segments older than the new retention.ms go");
  assert.equal(log.logStartOffset, log.segments()[0]?.baseOffset);
});

test("an open log switched to LogAppendTime stamps the next batch with its clock", async () => {
  const harness = new LogHarness(33);
  const log = await harness.open(testConfig());
  const first = makeBatch({ count: 2, tag: "create", timestamp: 5 });
  assert.equal(
    (await harness.run(log.appendAsLeader(first, { leaderEpoch: 0 }))).logAppendTime,
    -1,
  );
  log.updateConfig(testConfig({ messageTimestampType: "LogAppendTime" }));
  const second = makeBatch({ count: 2, tag: "append", timestamp: 5 });
  const before = harness.node.clock.nowMs();
  const appended = await harness.run(log.appendAsLeader(second, { leaderEpoch: 0 }));
  assert.ok(appended.logAppendTime >= before);
  assert.ok(appended.logAppendTime <= harness.node.clock.nowMs());
  const read = readBatchHeader(second);
  assert.ok(read.ok);
  assert.equal(read.header.timestampType, "logAppendTime");
  assert.equal(read.header.maxTimestamp, appended.logAppendTime);
  assert.ok(read.header.isCrcValid());
});

test("updateConfig refuses a config out of Kafka's ranges and keeps the old one", async () => {
  const harness = new LogHarness(34);
  const log = await harness.open(testConfig({ segmentBytes: 1000 }));
  assert.throws(() => log.updateConfig(testConfig({ segmentBytes: 1 })), AssertionError);
  assert.equal(log.config.segmentBytes, 1000);
});
