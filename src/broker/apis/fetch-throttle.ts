/**
 * Fetch's part of the client quotas: the answer of a consumer fetch that takes its client past
 * `consumer_byte_rate` or `request_percentage`.
 */
import type { FetchResponse } from "../../protocol/index.js";
import type { FetchContext } from "../fetch-session/index.js";
import type { ClientQuotas } from "../quotas/index.js";
import { respond, throttled, type HandlerContext, type HandlerOutcome } from "../router/handler.js";
import type { PartitionRead } from "./fetch-read.driver.js";

/**
 * The empty answer of a consumer fetch that takes its client past its `consumer_byte_rate` or
 * `request_percentage` quota (Kafka's getThrottledResponse: no partitions, the session's id for
 * an incremental fetch, no new session for a full one), or null within the quotas.
 */
export function throttledFetch(
  quotas: ClientQuotas | undefined,
  context: HandlerContext,
  sessionContext: Exclude<FetchContext, { kind: "error" }>,
  reads: readonly PartitionRead[],
): HandlerOutcome<FetchResponse> | null {
  if (quotas === undefined) return null;
  const bytes = reads.reduce((sum, read) => sum + read.records.byteLength, 0);
  const throttleTimeMs = quotas.recordFetch(context, bytes, context.localMs?.() ?? 0);
  if (throttleTimeMs === 0) return null;
  const sessionId = sessionContext.kind === "incremental" ? sessionContext.session.id : 0;
  const answer = respond<FetchResponse>({ throttleTimeMs, errorCode: 0, sessionId, responses: [] });
  return throttled(answer, throttleTimeMs);
}
