import { DecodeError } from "../codec/decode-error.js";
import { EncodeError } from "../codec/encode-error.js";
import { QuorumStateDataSchema } from "./generated/index.js";
import type { QuorumStateData } from "./generated/index.js";
import { structFromJson, structToJson } from "./json-converter.js";
import type { JsonValue } from "./json-converter.js";
import { isValidVersion } from "./message-codec.js";
import type { MessageInput } from "./types.js";

/** The key Kafka's quorum-state file adds beside the data fields to record their version. */
const DATA_VERSION_KEY = "data_version";

/** A quorum-state file read back: the version it was written in and its data. */
export interface QuorumStateFile {
  readonly version: number;
  readonly data: QuorumStateData;
}

/**
 * Renders the quorum-state file as Kafka writes it: the JSON object of QuorumStateData in
 * `version` (camelCase fields in schema order) followed by a `data_version` number.
 */
export function quorumStateToJson(data: MessageInput<QuorumStateData>, version: number): string {
  if (!isValidVersion(QuorumStateDataSchema, version)) {
    throw new EncodeError("unsupportedVersion", `QuorumStateData has no version ${version}`);
  }
  const json = structToJson(QuorumStateDataSchema, version, data as Record<string, unknown>);
  json[DATA_VERSION_KEY] = version;
  return JSON.stringify(json);
}

function parseJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (cause) {
    // A corrupt file is an input error like any other bad bytes, so it becomes a DecodeError.
    throw new DecodeError("invalid", `quorum state is not JSON: ${String(cause)}`);
  }
}

/**
 * Parses a quorum-state file. Throws DecodeError: "invalid" for text that is not a
 * QuorumStateData JSON object, "unsupportedVersion" for a data_version the schema lacks.
 */
export function quorumStateFromJson(text: string): QuorumStateFile {
  const json = parseJson(text);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    throw new DecodeError("invalid", "quorum state must be a JSON object");
  }
  const version = json[DATA_VERSION_KEY];
  if (typeof version !== "number" || !Number.isInteger(version)) {
    throw new DecodeError("invalid", `quorum state lacks a numeric ${DATA_VERSION_KEY}`);
  }
  if (!isValidVersion(QuorumStateDataSchema, version)) {
    throw new DecodeError("unsupportedVersion", `quorum state data_version ${version}`);
  }
  const data = structFromJson(QuorumStateDataSchema, version, json, "QuorumStateData");
  return { version, data: data as unknown as QuorumStateData };
}
