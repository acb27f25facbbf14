/**
 * Writes of one group run one after another, in the order they were asked for, so that the
 * log ends with the group's latest records; a write that fails does not stop the next.
 */
import { ErrorCode } from "../common/index.js";

export class SerialWrites {
  private readonly chains = new Map<string, Promise<number>>();

  /** Runs `write` after the group's earlier writes; resolves to its error code. */
  run(groupId: string, write: () => Promise<number>): Promise<number> {
    const previous = this.chains.get(groupId) ?? Promise.resolve(ErrorCode.NONE as number);
    const next = previous.then(write, write);
    this.chains.set(groupId, next);
    return next.finally(() => {
      if (this.chains.get(groupId) === next) this.chains.delete(groupId);
    });
  }

  /** Waits for every write under way. */
  async drain(): Promise<void> {
    await Promise.all([...this.chains.values()]);
  }
}
