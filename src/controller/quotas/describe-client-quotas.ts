/**
 * DescribeClientQuotas (v0-1), answered from a metadata image as Kafka's ClientQuotasImage
 * answers it: each filter component names an entity type once and matches it exactly (a name),
 * as the default entity, or as any name; `strict` also requires the entity to have no other
 * types. A bad filter is refused as a whole: INVALID_REQUEST, or UNSUPPORTED_VERSION for an
 * entity type Kafka does not know.
 */
import { ErrorCode } from "../../common/index.js";
import type { ClientQuotaEntityPart, MetadataImage } from "../../metadata/index.js";
import type {
  DescribeClientQuotasRequest,
  DescribeClientQuotasRequestComponentData,
  DescribeClientQuotasResponse,
} from "../../protocol/index.js";
import { QuotaEntityType } from "./client-quota-keys.js";

/** DescribeClientQuotas' match types. */
export const QuotaMatchType = { EXACT: 0, DEFAULT: 1, SPECIFIED: 2 } as const;

interface Filter {
  /** Types that must have this name (null: the default entity). */
  readonly exact: Map<string, string | null>;
  /** Types that must be present with any name. */
  readonly specified: Set<string>;
}

class FilterRefusal {
  constructor(
    readonly errorCode: number,
    readonly errorMessage: string,
  ) {}
}

export function describeClientQuotas(
  image: MetadataImage,
  request: DescribeClientQuotasRequest,
): DescribeClientQuotasResponse {
  const filter = filterOf(request.components);
  if (filter instanceof FilterRefusal) {
    const { errorCode, errorMessage } = filter;
    return { throttleTimeMs: 0, errorCode, errorMessage, entries: null };
  }
  const entries = [...image.clientQuotas.entities]
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .filter(([, { entity }]) => matches(entity, filter, request.strict))
    .map(([, { entity, quotas }]) => ({
      entity: entity.map(({ entityType, entityName }) => ({ entityType, entityName })),
      values: [...quotas].map(([key, value]) => ({ key, value })),
    }));
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, entries };
}

function filterOf(
  components: readonly DescribeClientQuotasRequestComponentData[],
): Filter | FilterRefusal {
  const exact = new Map<string, string | null>();
  const specified = new Set<string>();
  const invalid = (message: string) => new FilterRefusal(ErrorCode.INVALID_REQUEST, message);
  const known: readonly string[] = Object.values(QuotaEntityType);
  for (const { entityType, matchType, match } of components) {
    if (entityType === "") return invalid("Invalid empty entity type.");
    if (exact.has(entityType) || specified.has(entityType)) {
      return invalid(`Entity type ${entityType} cannot appear more than once in the filter.`);
    }
    if (!known.includes(entityType)) {
      const message = `Unsupported entity type ${entityType}`;
      return new FilterRefusal(ErrorCode.UNSUPPORTED_VERSION, message);
    }
    const refusal = componentRefusal(matchType, match);
    if (refusal !== undefined) return invalid(refusal);
    if (matchType === QuotaMatchType.SPECIFIED) specified.add(entityType);
    else exact.set(entityType, match);
  }
  const has = (type: string) => exact.has(type) || specified.has(type);
  if (has(QuotaEntityType.IP) && (has(QuotaEntityType.USER) || has(QuotaEntityType.CLIENT_ID))) {
    return invalid(
      "Invalid entity filter component combination. IP filter component should not be used " +
        "with user or clientId filter component.",
    );
  }
  return { exact, specified };
}

/** Why a component's match string does not fit its match type, or undefined. */
function componentRefusal(matchType: number, match: string | null): string | undefined {
  switch (matchType) {
    case QuotaMatchType.EXACT:
      return match === null
        ? "Request specified MATCH_TYPE_EXACT, but set match string to null."
        : undefined;
    case QuotaMatchType.DEFAULT:
      return match === null
        ? undefined
        : "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.";
    case QuotaMatchType.SPECIFIED:
      return match === null
        ? undefined
        : "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.";
    default:
      return `Unknown match type ${matchType}`;
  }
}

function matches(
  entity: readonly ClientQuotaEntityPart[],
  filter: Filter,
  strict: boolean,
): boolean {
  if (strict && entity.length !== filter.exact.size + filter.specified.size) return false;
  const names = new Map(entity.map((part) => [part.entityType, part.entityName]));
  for (const [type, name] of filter.exact) {
    if (!names.has(type) || names.get(type) !== name) return false;
  }
  for (const type of filter.specified) if (!names.has(type)) return false;
  return true;
}
