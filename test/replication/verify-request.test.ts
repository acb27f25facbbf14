/**
 * The request a partition leader sends to the transaction coordinator to verify a producer's
 * first transactional batch (KIP-890 part 1), built by the production code and encoded at each
 * broker version of AddPartitionsToTxn, then decoded again: one transaction per producer asking
 * (the questions waiting for one coordinator go together), verifyOnly, and only the partitions
 * asked, grouped by topic.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { verifyRequestOf } from "../../src/broker/apis/add-partitions-to-txn-manager.js";
import { ByteReader, ByteWriter, addPartitionsToTxn } from "../../src/protocol/index.js";

test("a leader's KIP-890 verification asks about its partitions only, at v4 and v5", () => {
  const question = {
    transactionalId: "payments",
    producerId: 4_000,
    producerEpoch: 3,
    partitions: [
      { topic: "orders", partition: 2 },
      { topic: "orders", partition: 0 },
      { topic: "audit", partition: 1 },
    ],
  };
  const second = {
    transactionalId: "refunds",
    producerId: 4_001,
    producerEpoch: 0,
    partitions: [{ topic: "__consumer_offsets", partition: 7 }],
  };
  for (const version of [4, 5]) {
    const writer = new ByteWriter();
    addPartitionsToTxn.encodeRequest(version, verifyRequestOf([question, second]), writer);
    const decoded = addPartitionsToTxn.decodeRequest(version, new ByteReader(writer.finish()));
    assert.deepEqual(
      decoded.transactions.map(
        ({ transactionalId, producerId, producerEpoch, verifyOnly, topics }) => ({
          transactionalId,
          producerId,
          producerEpoch,
          verifyOnly,
          topics: topics.map(({ name, partitions }) => ({ name, partitions })),
        }),
      ),
      [
        {
          transactionalId: "payments",
          producerId: 4_000,
          producerEpoch: 3,
          verifyOnly: true,
          topics: [
            { name: "orders", partitions: [2, 0] },
            { name: "audit", partitions: [1] },
          ],
        },
        {
          transactionalId: "refunds",
          producerId: 4_001,
          producerEpoch: 0,
          verifyOnly: true,
          topics: [{ name: "__consumer_offsets", partitions: [7] }],
        },
      ],
      `v${version}`,
    );
  }
});
