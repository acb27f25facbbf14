import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import { brokerRecord, imageOf, replay } from "../cluster/controls.test-support.js";
import { PRODUCER_ID_BLOCK_SIZE, allocateProducerIds } from "./allocate-producer-ids.js";

test("blocks of 1000 producer ids follow one another and are never handed out twice", () => {
  let image = imageOf(brokerRecord(1, { epoch: 10 }), brokerRecord(2, { epoch: 20 }));
  const starts: number[] = [];
  for (const [brokerId, brokerEpoch] of [
    [1, 10],
    [2, 20],
    [1, 10],
  ] as const) {
    const result = allocateProducerIds(image, { brokerId, brokerEpoch });
    assert.equal(result.response.errorCode, ErrorCode.NONE);
    assert.equal(result.response.producerIdLen, PRODUCER_ID_BLOCK_SIZE);
    starts.push(result.response.producerIdStart);
    image = replay(image, result.records);
  }
  assert.deepEqual(starts, [0, 1000, 2000]);
  assert.equal(image.producerIds.nextProducerId, 3000);
});

test("an unknown broker or an old broker epoch gets no block", () => {
  const image = imageOf(brokerRecord(1, { epoch: 10 }));
  const unknown = allocateProducerIds(image, { brokerId: 5, brokerEpoch: 10 });
  assert.equal(unknown.response.errorCode, ErrorCode.BROKER_ID_NOT_REGISTERED);
  const stale = allocateProducerIds(image, { brokerId: 1, brokerEpoch: 9 });
  assert.equal(stale.response.errorCode, ErrorCode.STALE_BROKER_EPOCH);
  assert.deepEqual(stale.records, []);
});
