import { assert } from "../../common/index.js";
import {
  ApiKey,
  NO_FINALIZED_FEATURES,
  answerApiVersions,
  type ApiVersionsTable,
  type FinalizedFeatures,
} from "../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";

/** The ApiVersions versions Sluice serves (Kafka 3.9 serves 0-4). */
export const API_VERSIONS_MIN_VERSION = 0;
export const API_VERSIONS_MAX_VERSION = 4;

export interface ApiVersionsHandlerOptions {
  /** The table to advertise: the router's, so it lists exactly the registered handlers. */
  readonly table: ApiVersionsTable;
  /**
   * The cluster's finalized features (metadata.version and others, KIP-584) from the current
   * metadata image, read on each request; none (epoch -1) until the broker has an image.
   */
  readonly finalizedFeatures?: () => FinalizedFeatures;
}

/**
 * The ApiVersions handler, versions 0-4: the served API ranges, and from v3 the supported and
 * finalized features. A request at a version above 4 never reaches it: the router gives the
 * KIP-511 answer from the same table.
 */
export function apiVersionsHandler(
  options: ApiVersionsHandlerOptions,
): ApiHandler<typeof ApiKey.ApiVersions> {
  const finalizedFeatures = options.finalizedFeatures ?? (() => NO_FINALIZED_FEATURES);
  return defineHandler(ApiKey.ApiVersions, {
    minVersion: API_VERSIONS_MIN_VERSION,
    maxVersion: API_VERSIONS_MAX_VERSION,
    authorization: { kind: "none" },
    handle: (body, { header }) => {
      const answer = answerApiVersions({ header, body }, options.table, finalizedFeatures());
      // Only an unserved version is answered at another version, and those are not routed here.
      assert(answer.apiVersion === header.apiVersion, "a served version is answered in kind");
      return respond(answer.body);
    },
  });
}

/** Registers the ApiVersions handler on a router-like registry with the registry's own table. */
export function registerApiVersions(
  router: {
    readonly apiVersions: ApiVersionsTable;
    register(handler: ApiHandler<typeof ApiKey.ApiVersions>): void;
  },
  finalizedFeatures?: () => FinalizedFeatures,
): void {
  const table = router.apiVersions;
  router.register(
    apiVersionsHandler(finalizedFeatures === undefined ? { table } : { table, finalizedFeatures }),
  );
}
