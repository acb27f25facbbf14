import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { decodeVotersRecord, encodeVotersRecord } from "../protocol/index.js";
import type { Uuid } from "../common/index.js";
import { OffsetHistory } from "./offset-history.js";
import { VoterSet, type Voter } from "./voter-set.js";

const voter = (id: number): Voter => ({
  key: { id, directoryId: id.toString(16).padStart(32, "a") as Uuid },
  endpoints: [{ name: "CONTROLLER", host: `node${id}`, port: 9093 }],
  kraftVersionMin: 0,
  kraftVersionMax: 1,
});

test("a voter set grows from one to three and shrinks back, with majorities to match", () => {
  const one = VoterSet.fromConfigured([{ id: 1, directoryId: null, endpoints: [] }]);
  assert.equal(one.majoritySize(), 1);
  const three = one.withVoter(voter(2)).withVoter(voter(3));
  assert.deepEqual(three.ids(), [1, 2, 3]);
  assert.equal(three.majoritySize(), 2);
  assert.ok(three.isMajority([1, 3]));
  assert.ok(!three.isMajority([3, 4, 5]));
  const back = three.withoutVoter({ id: 3, directoryId: null }).withoutVoter(voter(2).key);
  assert.ok(back.equals(one));
  assert.throws(() => back.withoutVoter({ id: 1, directoryId: null }), /last voter/);
});

test("a voter with another directory id is not the same voter", () => {
  const set = VoterSet.fromConfigured([]).withVoter(voter(2));
  assert.ok(set.isVoter({ id: 2, directoryId: null }));
  assert.ok(!set.isVoter({ id: 2, directoryId: "b".repeat(32) as Uuid }));
});

test("a voter set survives a VotersRecord round trip", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 9 }),
      (ids) => {
        const set = ids.reduce((acc, id) => acc.withVoter(voter(id)), VoterSet.fromConfigured([]));
        const bytes = encodeVotersRecord(0, set.toVotersRecord());
        assert.ok(VoterSet.fromVotersRecord(decodeVotersRecord(0, bytes)).equals(set));
      },
    ),
    { seed: 7, numRuns: 100 },
  );
});

test("the voter history follows appends, truncation and snapshots", () => {
  const history = new OffsetHistory("bootstrap");
  history.add(5, "five");
  history.add(9, "nine");
  assert.equal(history.latest(), "nine");
  assert.equal(history.atEndOffset(9), "five");
  assert.equal(history.atEndOffset(3), "bootstrap");
  history.truncateTo(9);
  assert.equal(history.latest(), "five");
  history.dropBefore(7);
  assert.equal(history.atEndOffset(7), "five");
});
