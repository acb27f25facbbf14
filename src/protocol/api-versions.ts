import { assert, ErrorCode } from "../common/index.js";
import type { RequestHeader, ResponseHeader } from "./headers.js";
import { apiDefinition } from "./messages/index.js";

/**
 * The ApiVersions table and the ApiVersions handler logic. Handlers register the version range
 * of each API they fully serve; the table advertises exactly that, nothing the codec merely knows.
 */

export const API_VERSIONS_KEY = 18;

/** An inclusive range of versions of one API. */
export interface ApiVersionRange {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** A feature the broker can run at any level in [minVersion, maxVersion] (KIP-584). */
export interface SupportedFeature {
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/** A feature level the cluster has finalized (KIP-584). */
export interface FinalizedFeature {
  readonly name: string;
  readonly minVersionLevel: number;
  readonly maxVersionLevel: number;
}

/** The cluster's finalized features and the epoch of that information (-1 when unknown). */
export interface FinalizedFeatures {
  readonly epoch: number;
  readonly features: readonly FinalizedFeature[];
}

/** No finalized features, epoch unknown: what a broker says before it has read the metadata. */
export const NO_FINALIZED_FEATURES: FinalizedFeatures = { epoch: -1, features: [] };

/**
 * The versions this broker serves, per API, plus the features it supports. Filled while the
 * broker is wired together; each API may be registered once, within the codec's range.
 */
export class ApiVersionsTable {
  private readonly byKey = new Map<number, ApiVersionRange>();

  constructor(readonly supportedFeatures: readonly SupportedFeature[] = []) {}

  /** Records that a handler fully serves `range`. */
  register(range: ApiVersionRange): void {
    const definition = apiDefinition(range.apiKey);
    assert(definition !== undefined, `API ${range.apiKey} has no codec`);
    assert(!this.byKey.has(range.apiKey), `API ${range.apiKey} is registered twice`);
    assert(range.minVersion <= range.maxVersion, "an empty version range");
    assert(range.minVersion >= definition.minVersion, "minVersion below the codec's");
    assert(range.maxVersion <= definition.maxVersion, "maxVersion above the codec's");
    this.byKey.set(range.apiKey, { ...range });
  }

  range(apiKey: number): ApiVersionRange | undefined {
    return this.byKey.get(apiKey);
  }

  isSupported(apiKey: number, apiVersion: number): boolean {
    const range = this.byKey.get(apiKey);
    return range !== undefined && apiVersion >= range.minVersion && apiVersion <= range.maxVersion;
  }

  /** Every served range, by ascending API key. */
  ranges(): ApiVersionRange[] {
    return [...this.byKey.values()].sort((a, b) => a.apiKey - b.apiKey);
  }
}

/**
 * The table of a broker that serves nothing yet but ApiVersions itself (versions 0-4), which is
 * all Sluice serves today; other handlers add themselves as they are written.
 */
export function defaultApiVersionsTable(): ApiVersionsTable {
  const table = new ApiVersionsTable();
  table.register({ apiKey: API_VERSIONS_KEY, minVersion: 0, maxVersion: 4 });
  return table;
}

/** An ApiVersions response body, in the codec's field names. */
export interface ApiVersionsResponseBody {
  readonly errorCode: number;
  readonly apiKeys: readonly ApiVersionRange[];
  readonly throttleTimeMs: number;
  readonly supportedFeatures: readonly SupportedFeature[];
  readonly finalizedFeaturesEpoch: number;
  readonly finalizedFeatures: readonly FinalizedFeature[];
  readonly zkMigrationReady: boolean;
}

/** What to send back: the response header, the version to encode the body at, and the body. */
export interface ApiVersionsAnswer {
  readonly header: ResponseHeader;
  readonly apiVersion: number;
  readonly body: ApiVersionsResponseBody;
}

/**
 * An ApiVersions request: its header, and its body when the version is served. Only the KIP-511
 * client software fields are read, and checked, so any decoded body will do.
 */
export interface ApiVersionsQuestion {
  readonly header: RequestHeader;
  readonly body: ClientSoftwareFields | undefined;
}

interface ClientSoftwareFields {
  readonly clientSoftwareName?: unknown;
  readonly clientSoftwareVersion?: unknown;
}

// Kafka's rule for ClientSoftwareName and ClientSoftwareVersion (ApiVersionsRequest.isValid).
const SOFTWARE_NAME_OR_VERSION = /^[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?$/;

function hasValidClientSoftware(body: ClientSoftwareFields | undefined): boolean {
  const name = body?.clientSoftwareName;
  const version = body?.clientSoftwareVersion;
  return (
    typeof name === "string" &&
    typeof version === "string" &&
    SOFTWARE_NAME_OR_VERSION.test(name) &&
    SOFTWARE_NAME_OR_VERSION.test(version)
  );
}

function answer(
  apiVersion: number,
  correlationId: number,
  body: ApiVersionsResponseBody,
): ApiVersionsAnswer {
  // ApiVersions responses always travel with response header v0, so no tagged fields.
  return { header: { correlationId, taggedFields: [] }, apiVersion, body };
}

function errorBody(
  errorCode: number,
  apiKeys: readonly ApiVersionRange[],
): ApiVersionsResponseBody {
  return {
    errorCode,
    apiKeys,
    throttleTimeMs: 0,
    supportedFeatures: [],
    finalizedFeaturesEpoch: -1,
    finalizedFeatures: [],
    zkMigrationReady: false,
  };
}

/**
 * Answers an ApiVersions request, as Kafka's broker does:
 * - a version the table does not serve gets the KIP-511 answer: a v0 body with
 *   UNSUPPORTED_VERSION and the supported ranges, so the client can retry at a version both
 *   sides know (the header decoder reads such a request's header as v2, then v1). Kafka lists
 *   only ApiVersions' own range there; clients read only that entry, so listing the whole table
 *   is equally safe and also tells a client what else is served;
 * - v3+ with a client software name or version outside Kafka's pattern gets INVALID_REQUEST;
 * - otherwise errorCode 0, the whole table, throttleTimeMs 0 and, from v3, the features.
 */
export function answerApiVersions(
  request: ApiVersionsQuestion,
  table: ApiVersionsTable,
  finalized: FinalizedFeatures = NO_FINALIZED_FEATURES,
): ApiVersionsAnswer {
  const { apiVersion, correlationId } = request.header;
  assert(request.header.apiKey === API_VERSIONS_KEY, "not an ApiVersions request");
  assert(table.range(API_VERSIONS_KEY) !== undefined, "the table must serve ApiVersions");
  if (!table.isSupported(API_VERSIONS_KEY, apiVersion)) {
    return answer(0, correlationId, errorBody(ErrorCode.UNSUPPORTED_VERSION, table.ranges()));
  }
  if (apiVersion >= 3 && !hasValidClientSoftware(request.body)) {
    return answer(apiVersion, correlationId, errorBody(ErrorCode.INVALID_REQUEST, []));
  }
  return answer(apiVersion, correlationId, {
    errorCode: ErrorCode.NONE,
    apiKeys: table.ranges(),
    throttleTimeMs: 0,
    // KIP-1022: before v4, features whose minimum version is 0 are left out, since older clients
    // reject a zero minimum.
    supportedFeatures: table.supportedFeatures.filter(
      (feature) => apiVersion >= 4 || feature.minVersion > 0,
    ),
    finalizedFeaturesEpoch: finalized.epoch,
    finalizedFeatures: finalized.features,
    zkMigrationReady: false,
  });
}
