// Client quotas (KIP-55, KIP-546): the quota keys and entity types, AlterClientQuotas' checks
// and records, and DescribeClientQuotas' filters over an image.
export {
  ENFORCED_QUOTA_KEYS,
  IP_QUOTA_KEYS,
  QuotaEntityType,
  QuotaKey,
  USER_AND_CLIENT_QUOTA_KEYS,
  invalidQuotaValueReason,
  isIpLiteral,
} from "./client-quota-keys.js";
export type { QuotaKeyType } from "./client-quota-keys.js";
export { alterClientQuotas } from "./alter-client-quotas.js";
export { QuotaMatchType, describeClientQuotas } from "./describe-client-quotas.js";
