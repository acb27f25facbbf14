/**
 * The producer id manager's block source on the controller channel: AllocateProducerIds (v0)
 * with this broker's id and current epoch. Kafka's controller refuses a broker that is not
 * registered (BROKER_ID_NOT_REGISTERED) or names an old epoch (STALE_BROKER_EPOCH); both come
 * back as errors and the manager asks again after its backoff.
 */
import { ErrorCode } from "../../common/index.js";
import type { BlockAnswer, ProducerIdBlockSource } from "../../coordinator/index.js";
import { allocateProducerIds, type AllocateProducerIdsRequest } from "../../protocol/index.js";
import type { BrokerEpochSource } from "./controller-alter-partition-sender.driver.js";
import type { ControllerChannel } from "./controller-channel.driver.js";

/** The AllocateProducerIds request of a broker. */
export function allocateProducerIdsRequest(
  broker: ReturnType<BrokerEpochSource>,
): AllocateProducerIdsRequest {
  return { brokerId: broker.brokerId, brokerEpoch: broker.brokerEpoch };
}

/** The controller's answer as a block, or the error that stands for it. */
export function blockAnswerOf(response: {
  readonly errorCode: number;
  readonly producerIdStart: number;
  readonly producerIdLen: number;
}): BlockAnswer {
  if (response.errorCode !== ErrorCode.NONE) {
    return { kind: "error", errorCode: response.errorCode };
  }
  return { kind: "block", start: response.producerIdStart, length: response.producerIdLen };
}

export class ControllerProducerIdSource implements ProducerIdBlockSource {
  constructor(
    private readonly channel: ControllerChannel,
    private readonly brokerEpoch: BrokerEpochSource,
    private readonly options: { readonly requestTimeoutMs: number },
  ) {}

  async allocate(): Promise<BlockAnswer> {
    const body = allocateProducerIdsRequest(this.brokerEpoch());
    const result = await this.channel.send(allocateProducerIds, body, {
      timeoutMs: this.options.requestTimeoutMs,
    });
    if (result.kind === "failed") return { kind: "error", errorCode: result.errorCode };
    return blockAnswerOf(result.body);
  }
}
