/**
 * Version negotiation, pure: reading a peer's ApiVersions answer (with KIP-511's fallback when
 * the peer is older than the client) and picking, per request, the highest version that the
 * peer serves, the codec knows and the caller allows.
 */
import { ErrorCode } from "../common/index.js";
import {
  API_VERSIONS_KEY,
  apiDefinition,
  decodeResponse,
  type DecodedResponse,
} from "../protocol/index.js";
import type { VersionBounds } from "./client-result.js";

/** The versions a peer serves, by API key. */
export type ServedVersions = ReadonlyMap<number, VersionBounds>;

export type ApiVersionsOutcome =
  | { readonly kind: "ready"; readonly served: ServedVersions }
  | { readonly kind: "retry"; readonly apiVersion: number }
  | { readonly kind: "failed"; readonly message: string };

/** Which version a request goes out at, or why none fits. */
export type VersionChoice =
  | { readonly kind: "chosen"; readonly apiVersion: number }
  | {
      readonly kind: "unsupported";
      readonly allowed: VersionBounds;
      readonly served: VersionBounds | undefined;
    };

/** The caller's limits on the version of one request; both ends are inclusive. */
export interface VersionWish {
  readonly minVersion?: number;
  readonly maxVersion?: number;
}

interface ApiVersionsEntry {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
}

/**
 * Decodes an ApiVersions response to a request sent at `sentVersion`. A peer that does not serve
 * that version answers with a v0 body (KIP-511), so when the body does not decode at the version
 * sent, it is read again as v0, as Kafka's client does.
 */
export function decodeApiVersionsResponse(frame: Uint8Array, sentVersion: number): DecodedResponse {
  const decoded = decodeResponse(frame, API_VERSIONS_KEY, sentVersion);
  if (decoded.kind === "response" || sentVersion === 0) return decoded;
  const fallback = decodeResponse(frame, API_VERSIONS_KEY, 0);
  return fallback.kind === "response" ? fallback : decoded;
}

/**
 * Interprets an ApiVersions response body to a request sent at `sentVersion`: the served table,
 * a retry at a lower version (UNSUPPORTED_VERSION carries the peer's own ApiVersions range, or
 * nothing, and then v0 is tried), or a failure.
 */
export function interpretApiVersionsResponse(
  sentVersion: number,
  body: Record<string, unknown>,
): ApiVersionsOutcome {
  const errorCode = body["errorCode"];
  const entries = (body["apiKeys"] ?? []) as readonly ApiVersionsEntry[];
  if (errorCode === ErrorCode.UNSUPPORTED_VERSION) {
    const own = entries.find((entry) => entry.apiKey === API_VERSIONS_KEY);
    const retryVersion = Math.min(own?.maxVersion ?? 0, apiVersionsMaxVersion());
    // A retry must go down, or two peers could bounce the same version forever.
    if (retryVersion >= sentVersion || retryVersion < 0) {
      return {
        kind: "failed",
        message: `ApiVersions v${sentVersion} refused with no lower version`,
      };
    }
    return { kind: "retry", apiVersion: retryVersion };
  }
  if (errorCode !== ErrorCode.NONE) {
    return { kind: "failed", message: `ApiVersions answered with error code ${String(errorCode)}` };
  }
  const served = new Map<number, VersionBounds>();
  for (const entry of entries) {
    served.set(entry.apiKey, { minVersion: entry.minVersion, maxVersion: entry.maxVersion });
  }
  return { kind: "ready", served };
}

/** The highest ApiVersions version the codec speaks: the first one the client tries. */
export function apiVersionsMaxVersion(): number {
  const definition = apiDefinition(API_VERSIONS_KEY);
  return definition === undefined ? 0 : definition.maxVersion;
}

/**
 * The highest version of `apiKey` in the intersection of what the peer serves, what the codec
 * knows and what the caller allows.
 */
export function chooseVersion(
  apiKey: number,
  served: ServedVersions,
  wish: VersionWish,
): VersionChoice {
  const definition = apiDefinition(apiKey);
  const codecMin = definition?.minVersion ?? 0;
  const codecMax = definition?.maxVersion ?? -1;
  const allowed = {
    minVersion: Math.max(codecMin, wish.minVersion ?? codecMin),
    maxVersion: Math.min(codecMax, wish.maxVersion ?? codecMax),
  };
  const range = served.get(apiKey);
  if (range === undefined) return { kind: "unsupported", allowed, served: undefined };
  const highest = Math.min(allowed.maxVersion, range.maxVersion);
  const lowest = Math.max(allowed.minVersion, range.minVersion);
  if (highest < lowest) return { kind: "unsupported", allowed, served: range };
  return { kind: "chosen", apiVersion: highest };
}
