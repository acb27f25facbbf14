import { assert } from "../../common/index.js";
import { apiCodec, inRange, type FieldSchema } from "../../protocol/index.js";

/**
 * The generic form of Kafka's getErrorResponse for APIs whose response has a top-level error
 * code: that code set, throttleTimeMs 0 where the version has it, every other field at its
 * default (empty arrays, nulls, -1 ids), exactly what Kafka's error responses of those APIs hold.
 */

function topLevelField(apiKey: number, name: string, type: string): FieldSchema | undefined {
  const codec = apiCodec(apiKey);
  assert(codec !== undefined, `API ${apiKey} has no codec`);
  return codec.responseSchema.fields.find((field) => field.name === name && field.type === type);
}

/** True when the response of `apiVersion` of `apiKey` has a top-level int16 `errorCode`. */
export function hasTopLevelErrorCode(apiKey: number, apiVersion: number): boolean {
  const field = topLevelField(apiKey, "errorCode", "int16");
  return field !== undefined && inRange(field.versions, apiVersion);
}

/**
 * The response carrying `errorCode` at the top level, or undefined when that version of the
 * response has no top-level error code (the handler must then build its own).
 */
export function topLevelErrorResponse(
  apiKey: number,
  apiVersion: number,
  errorCode: number,
): Record<string, number> | undefined {
  if (!hasTopLevelErrorCode(apiKey, apiVersion)) return undefined;
  const throttle = topLevelField(apiKey, "throttleTimeMs", "int32");
  const hasThrottle = throttle !== undefined && inRange(throttle.versions, apiVersion);
  return hasThrottle ? { errorCode, throttleTimeMs: 0 } : { errorCode };
}
