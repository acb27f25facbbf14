import { assert } from "../common/index.js";
import { apiCodec } from "./messages/index.js";
import { ELEMENT_ITSELF, ERROR_MIRRORS, type ArrayMirror } from "./error-response-mirrors.js";
import { inRange, type FieldSchema, type StructSchema } from "./schema/types.js";

/**
 * Kafka's `AbstractRequest.getErrorResponse`, driven by the schemas: the response to a decoded
 * request that carries one error code in every error slot (the top-level `errorCode`, and the
 * `errorCode` of each topic, partition, resource or group the request named), every other field
 * at its default.
 */

/** The int16 fields that hold an element's error (AddPartitionsToTxn v0-v3 names its own). */
const ERROR_CODE_FIELDS: ReadonlySet<string> = new Set(["errorCode", "partitionErrorCode"]);

/** A decoded request: which API and version, and its body in the codec's field names. */
export interface RequestForError {
  readonly apiKey: number;
  readonly apiVersion: number;
  readonly body: Record<string, unknown>;
}

interface Fill {
  readonly version: number;
  readonly errorCode: number;
}

/** The mirrors of `apiKey` that apply to `apiVersion` and name request fields it has. */
function mirrorsIn(apiKey: number, apiVersion: number, requestSchema: StructSchema) {
  return (ERROR_MIRRORS.get(apiKey) ?? []).filter((mirror) => {
    if (mirror.versions !== undefined && !inRange(mirror.versions, apiVersion)) return false;
    const field = requestSchema.fields.find((candidate) => candidate.name === mirror.request);
    return field !== undefined && inRange(field.versions, apiVersion);
  });
}

/** True when `schema` has an int16 `errorCode` at its top level in `version`. */
function hasTopLevelErrorCode(schema: StructSchema, version: number): boolean {
  return schema.fields.some(
    (field) =>
      field.name === "errorCode" && field.type === "int16" && inRange(field.versions, version),
  );
}

/**
 * True when an error response can be built for requests of (apiKey, apiVersion): the response
 * has a top-level error code in that version, or answers the request's topics, partitions or
 * resources one by one. The API must be one the codec knows, at a version it defines.
 */
export function canBuildErrorResponse(apiKey: number, apiVersion: number): boolean {
  const codec = apiCodec(apiKey);
  assert(codec !== undefined, `API ${apiKey} has no codec`);
  assert(apiVersion >= codec.minVersion, `API ${apiKey} v${apiVersion} is below the codec`);
  assert(apiVersion <= codec.maxVersion, `API ${apiKey} v${apiVersion} is beyond the codec`);
  if (hasTopLevelErrorCode(codec.responseSchema, apiVersion)) return true;
  return mirrorsIn(apiKey, apiVersion, codec.requestSchema).length > 0;
}

/**
 * The response body answering `request` with `errorCode` everywhere it asked for something, or
 * undefined when that version of the API has no place for an error (see canBuildErrorResponse).
 * Keys copied from the request (topic names, partition indexes) keep the request's order; a
 * null the response cannot carry in that version is left at the field's default.
 */
export function errorResponseFor(
  request: RequestForError,
  errorCode: number,
): Record<string, unknown> | undefined {
  const { apiKey, apiVersion, body } = request;
  if (!canBuildErrorResponse(apiKey, apiVersion)) return undefined;
  const codec = apiCodec(apiKey);
  assert(codec !== undefined, `API ${apiKey} has no codec`);
  const mirrors = mirrorsIn(apiKey, apiVersion, codec.requestSchema);
  return fillStruct(codec.responseSchema, body, mirrors, { version: apiVersion, errorCode });
}

/** One level of the response: error slots, throttle time, and the mirrored arrays. */
function fillStruct(
  schema: StructSchema,
  request: unknown,
  mirrors: readonly ArrayMirror[],
  fill: Fill,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of schema.fields) {
    if (!inRange(field.versions, fill.version)) continue;
    if (field.type === "int16" && ERROR_CODE_FIELDS.has(field.name)) {
      result[field.name] = fill.errorCode;
    } else if (field.type === "int32" && field.name === "throttleTimeMs") {
      result[field.name] = 0;
    } else {
      const elements = mirroredElements(field, request, mirrors, fill);
      if (elements !== undefined) result[field.name] = elements;
    }
  }
  return result;
}

/** The elements of a response array that mirrors a request array, or undefined when none does. */
function mirroredElements(
  field: FieldSchema,
  request: unknown,
  mirrors: readonly ArrayMirror[],
  fill: Fill,
): Record<string, unknown>[] | undefined {
  const type = field.type;
  if (typeof type === "string" || !("array" in type) || typeof type.array === "string") {
    return undefined;
  }
  const elementSchema = type.array;
  for (const mirror of mirrors) {
    if (mirror.response !== field.name) continue;
    const source = isRecord(request) ? request[mirror.request] : undefined;
    // A null array (Metadata's "all topics") names nothing, so nothing is answered one by one.
    if (!Array.isArray(source)) continue;
    return source.map((element: unknown) => ({
      ...fillStruct(elementSchema, element, mirror.nested ?? [], fill),
      ...copiedKeys(elementSchema, element, mirror, fill.version),
    }));
  }
  return undefined;
}

/** The key fields and Kafka's non-default values of one mirrored element. */
function copiedKeys(
  elementSchema: StructSchema,
  element: unknown,
  mirror: ArrayMirror,
  version: number,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [responseName, value] of Object.entries(mirror.values ?? {})) {
    if (fieldIn(elementSchema, responseName, version) !== undefined) result[responseName] = value;
  }
  for (const [responseName, requestName] of Object.entries(mirror.keys)) {
    const field = fieldIn(elementSchema, responseName, version);
    if (field === undefined) continue;
    const value = requestName === ELEMENT_ITSELF ? element : fieldOf(element, requestName);
    if (value === undefined) continue;
    if (value === null && !inRange(field.nullableVersions, version)) continue;
    result[responseName] = value;
  }
  return result;
}

function fieldIn(schema: StructSchema, name: string, version: number): FieldSchema | undefined {
  const field = schema.fields.find((candidate) => candidate.name === name);
  return field !== undefined && inRange(field.versions, version) ? field : undefined;
}

function fieldOf(element: unknown, name: string): unknown {
  return isRecord(element) ? element[name] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
