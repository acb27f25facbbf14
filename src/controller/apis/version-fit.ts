/**
 * Fitting a message to one version: the handlers build the whole answer (as the newest version
 * states it) and leave out, at every depth, the fields the request's version does not have, as
 * Kafka's generated code ignores fields marked ignorable. Without this the codec refuses to
 * write a field that a version lacks (for example DescribeConfigs' isDefault after v0).
 */
import { assert } from "../../common/index.js";
import { apiCodec, inRange, typedApiCodec } from "../../protocol/index.js";
import type {
  ApiKey,
  ApiResponse,
  FieldSchema,
  MessageInput,
  StructSchema,
} from "../../protocol/index.js";

/** `message` without the fields of `schema` (at any depth) that `version` does not have. */
export function fitToVersion(schema: StructSchema, version: number, message: object): object {
  const fitted: Record<string, unknown> = {};
  const values = message as Record<string, unknown>;
  for (const field of schema.fields) {
    if (!inRange(field.versions, version)) continue;
    const value = values[field.name];
    if (value !== undefined) fitted[field.name] = fitValue(field, version, value);
  }
  return fitted;
}

function fitValue(field: FieldSchema, version: number, value: unknown): unknown {
  const type = field.type;
  if (typeof type !== "object" || value === null) return value;
  if ("struct" in type) return fitToVersion(type.struct, version, value as object);
  const element = type.array;
  if (typeof element !== "object" || !Array.isArray(value)) return value;
  return value.map((item: object) => fitToVersion(element, version, item));
}

/**
 * The response of `apiKey` fitted to `version`. Leaving fields out keeps it a response of that
 * API: every field of a `MessageInput` is optional, and a missing one takes its default.
 */
export function responseForVersion<K extends ApiKey>(
  apiKey: K,
  version: number,
  response: MessageInput<ApiResponse<K>>,
): MessageInput<ApiResponse<K>> {
  const fitted = fitToVersion(typedApiCodec(apiKey).responseSchema, version, response);
  return fitted as MessageInput<ApiResponse<K>>;
}

/** The request input of `apiKey` fitted to `version` (for building requests). */
export function requestForVersion(apiKey: number, version: number, request: object): object {
  const codec = apiCodec(apiKey);
  assert(codec !== undefined, `API ${apiKey} has a codec`);
  return fitToVersion(codec.requestSchema, version, request);
}
