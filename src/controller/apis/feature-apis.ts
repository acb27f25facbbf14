/**
 * UpdateFeatures (57, v0-2): finalized feature levels changed by an operator (kafka-features.sh,
 * `sluice features`), decided in features/update-features.ts. Versions 0 and 1 answer each
 * feature of a successful request; version 2 answers only at the top, as Kafka's controller does.
 */
import { ApiKey, type UpdateFeaturesResponse } from "../../protocol/index.js";
import { elrClearingRecords } from "../election/index.js";
import { decideFeatureUpdates, featureUpdatesOf } from "../features/index.js";
import { writeApi } from "./controller-api.js";

/** UpdateFeatures: one atomic batch of FeatureLevelRecords, or one refusal for all. */
export const updateFeaturesApi = writeApi(ApiKey.UpdateFeatures, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 2,
  compute: (context, request, version) => {
    const updates = featureUpdatesOf(request, version);
    const outcome = decideFeatureUpdates(
      context.image,
      { nodeId: context.nodeId, voterIds: context.voterIds },
      updates,
      request.validateOnly,
    );
    const records = outcome.turnsElrOff
      ? [...outcome.records, ...elrClearingRecords(context.image)]
      : outcome.records;
    const isAccepted = outcome.errorCode === 0;
    const response: UpdateFeaturesResponse = {
      throttleTimeMs: 0,
      errorCode: outcome.errorCode,
      errorMessage: outcome.errorMessage,
      results:
        isAccepted && version <= 1
          ? updates.map(({ feature }) => ({ feature, errorCode: 0, errorMessage: null }))
          : [],
    };
    return { records, response };
  },
  errorResponse: (_request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    errorCode,
    errorMessage,
    results: [],
  }),
});
