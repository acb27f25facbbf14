// Client quotas on a broker (KIP-13, KIP-55, KIP-219): which quota binds a request, its rate
// over sampled windows, and the throttle time of a request that takes the rate past its bound.
export { ClientQuotaManager, QUOTA_SENSOR_EXPIRY_MS } from "./client-quota-manager.js";
export type { QuotaClient } from "./client-quota-manager.js";
export { isQuotaKeySet, resolveQuota } from "./quota-resolution.js";
export type { ResolvedQuota } from "./quota-resolution.js";
export { ClientQuotas } from "./client-quotas.driver.js";
