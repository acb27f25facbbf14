/**
 * Hands out producer ids to InitProducerId (ProducerIdBlocks) and sends the AllocateProducerIds
 * requests it asks for through `source`, taking each answer back in. Never waits for the
 * controller: an id is returned at once, or none while the first (or next) block is on its way.
 */
import { AssertionError, ErrorCode } from "../../common/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import { ProducerIdBlocks, type BlockAnswer } from "./producer-id-blocks.js";

/** Where blocks come from: AllocateProducerIds to the active controller. */
export interface ProducerIdBlockSource {
  /** Resolves to the controller's answer, or an error for a lost or refused request. */
  allocate(): Promise<BlockAnswer>;
}

export class ProducerIdManager {
  private readonly blocks = new ProducerIdBlocks();
  private inflight: Promise<void> | undefined;

  constructor(
    private readonly source: ProducerIdBlockSource,
    private readonly ports: { readonly clock: Clock; readonly logger: Logger },
  ) {}

  /** A new producer id, or undefined while none is at hand (COORDINATOR_LOAD_IN_PROGRESS). */
  generateProducerId(): number | undefined {
    const claim = this.blocks.claim(this.ports.clock.monotonicMs());
    if (claim.shouldRequestBlock) this.requestBlock();
    return claim.producerId;
  }

  /** Resolves when no AllocateProducerIds request is in flight. */
  async whenIdle(): Promise<void> {
    await this.inflight;
  }

  private requestBlock(): void {
    const sending = this.source
      .allocate()
      .catch((error: unknown): BlockAnswer => {
        if (error instanceof AssertionError) throw error;
        return { kind: "error", errorCode: ErrorCode.UNKNOWN_SERVER_ERROR };
      })
      .then((answer) => {
        if (answer.kind === "error") {
          this.ports.logger.warn("the controller granted no producer id block", {
            errorCode: answer.errorCode,
          });
        }
        this.blocks.onAnswer(answer, this.ports.clock.monotonicMs());
      });
    const done = sending.finally(() => {
      if (this.inflight === done) this.inflight = undefined;
    });
    this.inflight = done;
  }
}
