/**
 * Turns the values a request wants on one resource into ConfigRecords, after checking every key
 * and value: an unknown key or a bad value refuses the whole resource with INVALID_CONFIG, naming
 * the key. Only keys whose value really changes get a record.
 */
import { ErrorCode } from "../../common/index.js";
import { configResourceKey } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import { invalidValueReason } from "./config-validation.js";
import type { CheckedResource } from "./config-resources.js";
import {
  configRecord,
  definitionOn,
  duplicateResources,
  resourceTypeOf,
  unknownKeyMessage,
} from "./config-resources.js";

/** A resource that exists and has configs. */
export type ConfigurableResource = CheckedResource & { kind: "topic" | "broker" };

/** The records of one resource's change, or why it was refused. */
export type ResourceChange =
  | { readonly kind: "changed"; readonly records: readonly MetadataRecord[] }
  | { readonly kind: "refused"; readonly errorCode: number; readonly errorMessage: string };

export function refusal(errorCode: number, errorMessage: string): ResourceChange {
  return { kind: "refused", errorCode, errorMessage };
}

/** The response entry of one resource, the same in AlterConfigs and IncrementalAlterConfigs. */
export interface ResourceResponse {
  readonly errorCode: number;
  readonly errorMessage: string | null;
  readonly resourceType: number;
  readonly resourceName: string;
}

/**
 * Applies `alter` to each resource of an AlterConfigs or IncrementalAlterConfigs request: a
 * resource named twice is refused, the others succeed or fail alone, and with validateOnly no
 * record is kept.
 */
export function alterEachResource<
  R extends { readonly resourceType: number; readonly resourceName: string },
>(
  request: { readonly resources: readonly R[]; readonly validateOnly: boolean },
  alter: (resource: R) => ResourceChange,
): { records: MetadataRecord[]; responses: ResourceResponse[] } {
  const duplicates = duplicateResources(request.resources);
  const records: MetadataRecord[] = [];
  const responses = request.resources.map((resource, index): ResourceResponse => {
    const change = duplicates.has(index)
      ? refusal(ErrorCode.INVALID_REQUEST, "the resource is named more than once")
      : alter(resource);
    if (change.kind === "changed" && !request.validateOnly) records.push(...change.records);
    const { resourceType, resourceName } = resource;
    if (change.kind === "refused") {
      const { errorCode, errorMessage } = change;
      return { errorCode, errorMessage, resourceType, resourceName };
    }
    return { errorCode: ErrorCode.NONE, errorMessage: null, resourceType, resourceName };
  });
  return { records, responses };
}

/** The values set on the resource now. */
export function currentValues(
  image: MetadataImage,
  resource: ConfigurableResource,
): Map<string, string> {
  const key = configResourceKey({ type: resourceTypeOf(resource), name: resource.name });
  const values = image.configs.resources.get(key)?.values;
  return new Map(values === undefined ? [] : [...values.entries()]);
}

/** Why a key or value of `wanted` is refused, or undefined when all are valid. */
export function invalidConfigMessage(
  resource: ConfigurableResource,
  wanted: ReadonlyMap<string, string | null>,
): string | undefined {
  for (const [key, value] of wanted) {
    const definition = definitionOn(resource, key);
    if (definition === undefined) return unknownKeyMessage(resource, key);
    if (value === null) continue;
    const reason = invalidValueReason(definition, value);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * The ConfigRecords that take the resource from its current values to `target` (a null value
 * removes the key), in key order. Keys of `target` must have been checked.
 */
export function recordsToReach(
  image: MetadataImage,
  resource: ConfigurableResource,
  target: ReadonlyMap<string, string | null>,
): MetadataRecord[] {
  const current = currentValues(image, resource);
  const records: MetadataRecord[] = [];
  for (const key of [...target.keys()].sort()) {
    const value = target.get(key) ?? null;
    if ((current.get(key) ?? null) === value) continue;
    records.push(configRecord(resourceTypeOf(resource), resource.name, key, value));
  }
  return records;
}

/** The change for `target` when every key and value is valid, else the refusal. */
export function changeTo(
  image: MetadataImage,
  resource: ConfigurableResource,
  checked: ReadonlyMap<string, string | null>,
  target: ReadonlyMap<string, string | null>,
): ResourceChange {
  const message = invalidConfigMessage(resource, checked);
  if (message !== undefined) return refusal(ErrorCode.INVALID_CONFIG, message);
  return { kind: "changed", records: recordsToReach(image, resource, target) };
}
