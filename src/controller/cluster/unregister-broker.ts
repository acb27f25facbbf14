/**
 * UnregisterBroker: an operator removes a broker for good. Its leaderships and ISR places move
 * first, then an UnregisterBrokerRecord removes the registration, as Kafka's
 * handleBrokerUnregistered does.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { UnregisterBrokerRequest, UnregisterBrokerResponse } from "../../protocol/index.js";
import type { BrokerHeartbeats } from "./broker-heartbeats.js";
import { unregisterBrokerRecord } from "./cluster-records.js";
import type { ControllerResult } from "./controller-result.js";
import type { PartitionHooks } from "./partition-hooks.js";

export interface UnregisterBrokerResult extends ControllerResult<UnregisterBrokerResponse> {
  readonly heartbeats: BrokerHeartbeats;
}

/** Handles an UnregisterBroker request (v0). */
export function unregisterBroker(
  context: {
    readonly image: MetadataImage;
    readonly heartbeats: BrokerHeartbeats;
    readonly hooks: PartitionHooks;
  },
  request: UnregisterBrokerRequest,
): UnregisterBrokerResult {
  const { image, heartbeats, hooks } = context;
  const brokerId = request.brokerId as BrokerId;
  const broker = image.cluster.brokers.get(brokerId);
  if (broker === undefined) {
    const response = {
      throttleTimeMs: 0,
      errorCode: ErrorCode.BROKER_ID_NOT_REGISTERED,
      errorMessage: `broker ${brokerId} is not registered`,
    };
    return { records: [], response, heartbeats };
  }
  const records = [...hooks.brokerFenced(image, brokerId), unregisterBrokerRecord(broker)];
  const response = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null };
  return { records, response, heartbeats: heartbeats.without(brokerId) };
}
