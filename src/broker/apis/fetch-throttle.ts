/**
 * Fetch's part of the consumer byte-rate quota: the answer of a fetch that takes its client past
 * `consumer_byte_rate`.
 */
import type { FetchResponse } from "../../protocol/index.js";
import type { FetchContext } from "../fetch-session/index.js";
import type { ClientQuotas } from "../quotas/index.js";
import { respond, throttled, type HandlerContext, type HandlerOutcome } from "../router/handler.js";
import type { PartitionRead } from "./fetch-read.driver.js";

/**
 * The empty answer of a consumer fetch that takes its client past its `consumer_byte_rate`
 * quota (Kafka's getThrottledResponse: no partitions, the session's id for an incremental
 * fetch, no new session for a full one), or null within the quota.
 */
export function throttledFetch(
  quotas: ClientQuotas | undefined,
  context: HandlerContext,
  sessionContext: Exclude<FetchContext, { kind: "error" }>,
  reads: readonly PartitionRead[],
): HandlerOutcome<FetchResponse> | null {
  if (quotas === undefined) return null;
  const bytes = reads.reduce((sum, read) => sum + read.records.byteLength, 0);
  const throttleTimeMs = quotas.recordFetch(context, bytes);
  if (throttleTimeMs === 0) return null;
  const sessionId = sessionContext.kind === "incremental" ? sessionContext.session.id : 0;
  const answer = respond<FetchResponse>({ throttleTimeMs, errorCode: 0, sessionId, responses: [] });
  return throttled(answer, throttleTimeMs);
}
