/**
 * AllocateProducerIds (v0): brokers take producer ids in blocks of 1000 (Kafka's block size);
 * each grant writes a ProducerIdsRecord with the first id of the next block, so no id is ever
 * handed out twice, across controller failovers too. Only a registered broker with its current
 * epoch may take a block.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type {
  AllocateProducerIdsRequest,
  AllocateProducerIdsResponse,
} from "../../protocol/index.js";
import { answerOnly } from "../cluster/index.js";
import type { ControllerResult } from "../cluster/index.js";

export const PRODUCER_ID_BLOCK_SIZE = 1000;

/** The largest producer id: ids are int64 on the wire but numbers in Sluice (safe integers). */
const PRODUCER_ID_MAX = Number.MAX_SAFE_INTEGER;

function refused(errorCode: number): ControllerResult<AllocateProducerIdsResponse> {
  return answerOnly({ throttleTimeMs: 0, errorCode, producerIdStart: -1, producerIdLen: 0 });
}

export function allocateProducerIds(
  image: MetadataImage,
  request: AllocateProducerIdsRequest,
): ControllerResult<AllocateProducerIdsResponse> {
  const broker = image.cluster.brokers.get(request.brokerId as BrokerId);
  if (broker === undefined) return refused(ErrorCode.BROKER_ID_NOT_REGISTERED);
  if (broker.epoch !== request.brokerEpoch) return refused(ErrorCode.STALE_BROKER_EPOCH);
  // A cluster that never granted a block starts at 0 (the image holds -1 until then).
  const start = Math.max(image.producerIds.nextProducerId, 0);
  if (start > PRODUCER_ID_MAX - PRODUCER_ID_BLOCK_SIZE) {
    // Kafka's answer when the id space is used up.
    return refused(ErrorCode.UNKNOWN_SERVER_ERROR);
  }
  const nextProducerId = start + PRODUCER_ID_BLOCK_SIZE;
  const record = {
    type: MetadataRecordType.ProducerIdsRecord,
    version: 0,
    data: { brokerId: broker.id, brokerEpoch: broker.epoch, nextProducerId },
  } as const;
  const response = {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    producerIdStart: start,
    producerIdLen: PRODUCER_ID_BLOCK_SIZE,
  };
  return { records: [record], response };
}
