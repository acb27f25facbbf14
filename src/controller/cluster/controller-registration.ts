/**
 * ControllerRegistration: each controller announces its listeners and supported features so that
 * brokers and clients can find the quorum (KIP-919). The controller must support every finalized
 * feature level; a registration identical to the current one writes nothing.
 */
import { ErrorCode } from "../../common/index.js";
import type { BrokerId } from "../../common/index.js";
import type { ControllerRegistration, MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type {
  ControllerRegistrationRequest,
  ControllerRegistrationResponse,
  RegisterControllerRecord,
} from "../../protocol/index.js";
import { unsupportedFeatureMessage } from "../features/index.js";
import { announcedEndpointsAndFeatures } from "./cluster-records.js";
import type { ControllerResult } from "./controller-result.js";
import { answerOnly } from "./controller-result.js";

/** Handles a ControllerRegistration request (v0). */
export function registerController(
  image: MetadataImage,
  request: ControllerRegistrationRequest,
): ControllerResult<ControllerRegistrationResponse> {
  const unsupported = unsupportedFeatureMessage(image.features, request.features);
  if (unsupported !== undefined) {
    const errorMessage = `controller ${request.controllerId} cannot register: ${unsupported}`;
    return answerOnly({
      throttleTimeMs: 0,
      errorCode: ErrorCode.UNSUPPORTED_VERSION,
      errorMessage,
    });
  }
  const ok = { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null };
  const data: RegisterControllerRecord = {
    controllerId: request.controllerId,
    incarnationId: request.incarnationId,
    zkMigrationReady: request.zkMigrationReady,
    ...announcedEndpointsAndFeatures(request),
  };
  const existing = image.cluster.controllers.get(request.controllerId as BrokerId);
  if (existing !== undefined && isSameRegistration(existing, data)) return answerOnly(ok);
  return {
    records: [{ type: MetadataRecordType.RegisterControllerRecord, version: 0, data }],
    response: ok,
  };
}

/** Whether the record would state what the image already holds (order of lists aside). */
function isSameRegistration(
  existing: ControllerRegistration,
  data: RegisterControllerRecord,
): boolean {
  const byName = <T extends { name: string }>(items: readonly T[]): T[] =>
    [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const listeners = byName(data.endPoints);
  const features = byName(data.features);
  return (
    existing.incarnationId === data.incarnationId &&
    existing.isZkMigrationReady === data.zkMigrationReady &&
    JSON.stringify(existing.listeners) === JSON.stringify(listeners) &&
    JSON.stringify(existing.supportedFeatures) === JSON.stringify(features)
  );
}
