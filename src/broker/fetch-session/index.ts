// Incremental fetch sessions (KIP-227): the bounded session cache and the interpretation of a
// Fetch request's session fields.
export {
  FETCH_SESSION_CACHE_SLOTS_DEFAULT,
  FETCH_SESSION_EVICTION_MS_DEFAULT,
  FetchSession,
  FetchSessionCache,
  cachedKey,
  type CachedPartition,
  type FetchSessionCacheOptions,
} from "./fetch-session-cache.js";
export {
  FINAL_EPOCH,
  INITIAL_EPOCH,
  completeFetchContext,
  newFetchContext,
  type FetchAnswerFacts,
  type FetchContext,
  type FetchPartitionRequest,
  type FetchSessionRequest,
  type ForgottenPartition,
} from "./fetch-context.js";
