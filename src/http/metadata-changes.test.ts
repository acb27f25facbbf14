import { test } from "node:test";
import assert from "node:assert/strict";
import { MetadataChangeFeed, type MetadataChange } from "./metadata-changes.js";

function feed(options: { historyMax: number; recordsPerChangeMax: number }) {
  let summarized = 0;
  const changes = new MetadataChangeFeed({
    ...options,
    summarize: (value) => {
      summarized++;
      return { type: "Record", summary: `${value[0]}` };
    },
  });
  return { changes, summarized: () => summarized };
}

const batch = (baseOffset: number, values: readonly number[]) => ({
  kind: "batch" as const,
  baseOffset,
  lastOffset: baseOffset + values.length - 1,
  epoch: 3,
  records: values.map((value) => new Uint8Array([value])),
});

test("subscribers get each change in commit order, summarized; unsubscribed, no more", () => {
  const { changes } = feed({ historyMax: 10, recordsPerChangeMax: 10 });
  const seen: MetadataChange[] = [];
  const unsubscribe = changes.subscribe((change) => seen.push(change));
  changes.publish(batch(0, [1, 2]));
  changes.publish(batch(2, [3]));
  unsubscribe();
  changes.publish(batch(3, [4]));
  assert.deepEqual(
    seen.map((change) => [change.baseOffset, change.records.map((record) => record.summary)]),
    [
      [0, ["1", "2"]],
      [2, ["3"]],
    ],
  );
});

test("nothing is decoded while no one listens, and each change at most once", () => {
  const { changes, summarized } = feed({ historyMax: 10, recordsPerChangeMax: 10 });
  changes.publish(batch(0, [1, 2, 3]));
  assert.equal(summarized(), 0);
  changes.recent();
  changes.recent();
  assert.equal(summarized(), 3);
});

test("the history keeps the last changes; a snapshot starts it again", () => {
  const { changes } = feed({ historyMax: 2, recordsPerChangeMax: 10 });
  for (const offset of [0, 1, 2]) changes.publish(batch(offset, [offset]));
  assert.deepEqual(
    changes.recent().map((change) => change.baseOffset),
    [1, 2],
  );
  changes.publish({ kind: "snapshot", baseOffset: 0, lastOffset: 9, epoch: 3, records: [] });
  assert.deepEqual(
    changes.recent().map((change) => [change.kind, change.lastOffset]),
    [["snapshot", 9]],
  );
});

test("a change names its first records and counts them all", () => {
  const { changes, summarized } = feed({ historyMax: 2, recordsPerChangeMax: 2 });
  changes.publish(batch(0, [5, 6, 7, 8]));
  const [change] = changes.recent();
  assert.equal(change?.recordCount, 4);
  assert.deepEqual(
    change?.records.map((record) => record.summary),
    ["5", "6"],
  );
  assert.equal(summarized(), 2);
});
