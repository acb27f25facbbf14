/**
 * What every controller operation returns: the metadata records to propose as one atomic batch,
 * and the response to send once that batch commits. Operations are pure; the quorum controller
 * driver appends the records and answers.
 */
import type { MetadataRecord } from "../../protocol/index.js";

/** The records an operation wants committed, and the response that waits for them. */
export interface ControllerResult<Response> {
  /** Records to append atomically; empty when the operation changes nothing (or failed). */
  readonly records: readonly MetadataRecord[];
  readonly response: Response;
}

/** A result that writes nothing and answers at once. */
export function answerOnly<Response>(response: Response): ControllerResult<Response> {
  return { records: [], response };
}
