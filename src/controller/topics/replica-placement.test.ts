import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { BrokerId } from "../../common/index.js";
import { seededRandom } from "../cluster/controls.test-support.js";
import { placeReplicas } from "./replica-placement.js";
import type { UsableBroker } from "./replica-placement.js";

const arbitraryCluster = fc
  .array(fc.option(fc.constantFrom("a", "b", "c", "d"), { nil: null }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((racks) =>
    racks.map((rack, index): UsableBroker => ({ id: (index + 1) as BrokerId, rack })),
  );

const arbitraryCase = arbitraryCluster.chain((brokers) =>
  fc.record({
    brokers: fc.constant(brokers),
    replicationFactor: fc.integer({ min: 1, max: brokers.length }),
    partitionCount: fc.integer({ min: 1, max: 60 }),
    seed: fc.integer(),
  }),
);

test("every partition gets distinct replicas of usable brokers, and racks before repeats", () => {
  fc.assert(
    fc.property(arbitraryCase, ({ brokers, replicationFactor, partitionCount, seed }) => {
      const lists = placeReplicas(
        brokers,
        { partitionCount, replicationFactor },
        seededRandom(seed),
      );
      const rackOf = new Map(
        brokers.map((broker) => [broker.id, broker.rack ?? `solo-${broker.id}`]),
      );
      const rackCount = new Set(rackOf.values()).size;
      assert.equal(lists.length, partitionCount);
      for (const replicas of lists) {
        assert.equal(replicas.length, replicationFactor);
        assert.equal(new Set(replicas).size, replicationFactor);
        const racks = new Set(replicas.map((replica) => rackOf.get(replica)));
        assert.equal(racks.size, Math.min(replicationFactor, rackCount));
      }
    }),
    { seed: 20240601, numRuns: 300 },
  );
});

test("leaders are spread evenly: no broker leads more than one partition above its share", () => {
  fc.assert(
    fc.property(arbitraryCase, ({ brokers, replicationFactor, partitionCount, seed }) => {
      const lists = placeReplicas(
        brokers,
        { partitionCount, replicationFactor },
        seededRandom(seed),
      );
      const leaders = new Map<number, number>();
      for (const [leader] of lists) leaders.set(leader!, (leaders.get(leader!) ?? 0) + 1);
      const share = Math.ceil(partitionCount / brokers.length);
      for (const count of leaders.values()) assert.ok(count <= share, `${count} > ${share}`);
    }),
    { seed: 20240602, numRuns: 300 },
  );
});
