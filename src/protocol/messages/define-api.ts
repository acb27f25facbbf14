import { assert } from "../../common/index.js";
import type { ByteReader } from "../codec/reader.js";
import type { ByteWriter } from "../codec/writer.js";
import { decodeWholeMessage, encodeMessage } from "../schema/message-codec.js";
import type { MessageInput, MessageSchema } from "../schema/types.js";

/** The facts about one API that the ApiVersions table and the router need. */
export interface ApiDefinition {
  readonly apiKey: number;
  /** Kafka's name of the API, e.g. "Produce". */
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** First flexible version, or undefined when none is. */
  readonly flexibleFrom: number | undefined;
}

/**
 * The typed codec of one API: request and response bodies (without headers) in every version.
 * Decoders must consume the reader to its end (else DecodeError kind "trailing").
 */
export interface ApiCodec<Request extends object, Response extends object> extends ApiDefinition {
  readonly requestSchema: MessageSchema;
  readonly responseSchema: MessageSchema;
  /** True when Kafka marks the highest version as still unstable. */
  readonly isLatestVersionUnstable: boolean;
  decodeRequest(version: number, reader: ByteReader): Request;
  encodeRequest(version: number, body: MessageInput<Request>, writer: ByteWriter): void;
  decodeResponse(version: number, reader: ByteReader): Response;
  encodeResponse(version: number, body: MessageInput<Response>, writer: ByteWriter): void;
}

function firstFlexible(schema: MessageSchema, maxVersion: number): number | undefined {
  const first = schema.flexibleVersions?.[0];
  return first !== undefined && first <= maxVersion ? first : undefined;
}

export function defineApi<Request extends object, Response extends object>(
  requestSchema: MessageSchema,
  responseSchema: MessageSchema,
): ApiCodec<Request, Response> {
  const apiKey = requestSchema.apiKey;
  assert(apiKey !== undefined, `${requestSchema.name} has no API key`);
  assert(responseSchema.apiKey === apiKey, `${responseSchema.name} has another API key`);
  const [minVersion, maxVersion] = requestSchema.validVersions;
  return {
    apiKey,
    name: requestSchema.name.replace(/Request$/, ""),
    minVersion,
    maxVersion,
    flexibleFrom: firstFlexible(requestSchema, maxVersion),
    requestSchema,
    responseSchema,
    isLatestVersionUnstable: requestSchema.latestVersionUnstable === true,
    decodeRequest: (version, reader) =>
      decodeWholeMessage(requestSchema, version, reader) as Request,
    encodeRequest: (version, body, writer) => encodeMessage(requestSchema, version, body, writer),
    decodeResponse: (version, reader) =>
      decodeWholeMessage(responseSchema, version, reader) as Response,
    encodeResponse: (version, body, writer) => encodeMessage(responseSchema, version, body, writer),
  };
}
