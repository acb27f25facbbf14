import { assert } from "../../common/index.js";

/**
 * The per-connection order of responses. Each request taken up opens a slot; its response fills
 * the slot whenever it is ready; `takeReady` hands out filled slots strictly in slot order, so a
 * response that is ready early waits for every earlier one. A slot may be filled with "nothing
 * to send" (acks=0) and is then passed over without holding later ones back.
 */
export class ResponseSequence<Response> {
  private readonly filled = new Map<number, Response>();
  private nextSlot = 0;
  private head = 0;

  /** Slots opened and not yet taken: the requests in flight on the connection. */
  get inFlightCount(): number {
    return this.nextSlot - this.head;
  }

  /** Opens the slot of the next request. */
  open(): number {
    return this.nextSlot++;
  }

  /** Fills `slot` with its response. */
  fill(slot: number, response: Response): void {
    assert(slot >= this.head && slot < this.nextSlot, "only an open slot is filled");
    assert(!this.filled.has(slot), "a slot is filled once");
    this.filled.set(slot, response);
  }

  /** Removes and returns the responses now at the head, in slot order. */
  takeReady(): Response[] {
    const ready: Response[] = [];
    for (let response = this.filled.get(this.head); response !== undefined;) {
      this.filled.delete(this.head);
      this.head++;
      ready.push(response);
      response = this.filled.get(this.head);
    }
    return ready;
  }
}
