/**
 * AlterClientQuotas (v0-1) on the controller, as Kafka's ClientQuotaControlManager decides it:
 * each entity is checked (types user, client-id and ip; a null name is the default entity; ip
 * alone), each set value against its key's type, and only changed values become
 * ClientQuotaRecords (a removal only of a quota that is set). Each entity succeeds or fails
 * alone; validateOnly checks and writes nothing.
 */
import { ErrorCode } from "../../common/index.js";
import {
  clientQuotaEntityKey,
  type ClientQuotaEntityPart,
  type MetadataImage,
} from "../../metadata/index.js";
import {
  MetadataRecordType,
  type AlterClientQuotasRequest,
  type AlterClientQuotasRequestOpData,
  type AlterClientQuotasResponse,
  type MetadataRecord,
} from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/index.js";
import {
  ENFORCED_QUOTA_KEYS,
  IP_QUOTA_KEYS,
  QuotaEntityType,
  USER_AND_CLIENT_QUOTA_KEYS,
  invalidQuotaValueReason,
  isIpLiteral,
  type QuotaKeyType,
} from "./client-quota-keys.js";

interface EntityOutcome {
  readonly entity: readonly ClientQuotaEntityPart[];
  errorCode: number;
  errorMessage: string | null;
}

/** A refusal of one entity. */
interface Refusal {
  readonly errorMessage: string;
}

export function alterClientQuotas(
  image: MetadataImage,
  request: AlterClientQuotasRequest,
): ControllerResult<AlterClientQuotasResponse> {
  const records: MetadataRecord[] = [];
  // One answer per distinct entity, as Kafka's response map holds them, in request order.
  const outcomes = new Map<string, EntityOutcome>();
  for (const entry of request.entries) {
    const entity = entityOf(entry.entity);
    const key = clientQuotaEntityKey(entity);
    const refusal =
      duplicateRefusal(entry.ops, outcomes.has(key), entity) ??
      alterEntity(image, entity, entry.ops, records);
    const answer =
      refusal === undefined
        ? { entity, errorCode: ErrorCode.NONE, errorMessage: null }
        : { entity, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: refusal.errorMessage };
    // Kafka puts a repeated entity's refusal over the answer of its first entry, whose records
    // it keeps.
    const earlier = outcomes.get(key);
    if (earlier === undefined) outcomes.set(key, answer);
    else Object.assign(earlier, { errorCode: answer.errorCode, errorMessage: answer.errorMessage });
  }
  const entries = [...outcomes.values()].map(({ entity, errorCode, errorMessage }) => ({
    errorCode,
    errorMessage,
    entity: entity.map(({ entityType, entityName }) => ({ entityType, entityName })),
  }));
  return {
    records: request.validateOnly ? [] : records,
    response: { throttleTimeMs: 0, entries },
  };
}

/**
 * The request's entity as Kafka reads it: a map of type to name, so a type named twice keeps
 * its last name.
 */
function entityOf(parts: readonly ClientQuotaEntityPart[]): ClientQuotaEntityPart[] {
  const byType = new Map<string, string | null>();
  for (const { entityType, entityName } of parts) byType.set(entityType, entityName);
  return [...byType].map(([entityType, entityName]) => ({ entityType, entityName }));
}

function duplicateRefusal(
  ops: readonly AlterClientQuotasRequestOpData[],
  isEntitySeen: boolean,
  entity: readonly ClientQuotaEntityPart[],
): Refusal | undefined {
  const keys = new Set(ops.map((op) => op.key));
  // A repeated key also ends as Kafka's duplicate-entity message: it records the key's refusal
  // under the entity, then finds the entity answered.
  if (isEntitySeen || keys.size < ops.length) {
    return { errorMessage: `Ignoring duplicate entity ${entityName(entity)}` };
  }
  return undefined;
}

/** Checks one entity and its ops, adding the records of its changes to `records`. */
function alterEntity(
  image: MetadataImage,
  entity: readonly ClientQuotaEntityPart[],
  ops: readonly AlterClientQuotasRequestOpData[],
  records: MetadataRecord[],
): Refusal | undefined {
  const keys = validKeysOf(entity);
  if ("errorMessage" in keys) return keys;
  const current = image.clientQuotas.entities.get(clientQuotaEntityKey(entity))?.quotas;
  const changes: MetadataRecord[] = [];
  for (const op of ops) {
    if (op.remove) {
      if (current?.has(op.key) === true) changes.push(quotaRecord(entity, op.key, null));
      continue;
    }
    const refusal = invalidSetReason(keys.valid, op);
    if (refusal !== undefined) return { errorMessage: refusal };
    if (current?.get(op.key) !== op.value) changes.push(quotaRecord(entity, op.key, op.value));
  }
  records.push(...changes);
  return undefined;
}

/** Why setting `op` is refused, as Kafka's validateQuotaKeyValue, or undefined. */
function invalidSetReason(
  valid: ReadonlyMap<string, QuotaKeyType>,
  op: AlterClientQuotasRequestOpData,
): string | undefined {
  const type = valid.get(op.key);
  if (type === undefined) return `Invalid configuration key ${op.key}`;
  const reason = invalidQuotaValueReason(op.key, type, op.value);
  if (reason !== undefined) return reason;
  if (!ENFORCED_QUOTA_KEYS.has(op.key)) return `Quota ${op.key} is not enforced by this cluster`;
  return undefined;
}

/** Kafka's validateEntity and configKeysForEntityType: the keys the entity may set. */
function validKeysOf(
  entity: readonly ClientQuotaEntityPart[],
): Refusal | { readonly valid: ReadonlyMap<string, QuotaKeyType> } {
  if (entity.length === 0) return { errorMessage: "Invalid empty client quota entity" };
  const known: readonly string[] = Object.values(QuotaEntityType);
  for (const { entityType, entityName } of entity) {
    if (!known.includes(entityType)) {
      return { errorMessage: `Unhandled client quota entity type: ${entityType}` };
    }
    if (entityName === "") return { errorMessage: `Empty ${entityType} not supported` };
  }
  const ip = entity.find((part) => part.entityType === QuotaEntityType.IP);
  if (ip === undefined) return { valid: USER_AND_CLIENT_QUOTA_KEYS };
  if (entity.length > 1) {
    return {
      errorMessage:
        "Invalid quota entity combination, IP entity should not be combined with User or ClientId",
    };
  }
  if (ip.entityName !== null && !isIpLiteral(ip.entityName)) {
    return { errorMessage: `${ip.entityName} is not a valid IP or resolvable host.` };
  }
  return { valid: IP_QUOTA_KEYS };
}

/** The ClientQuotaRecord that sets `key` of `entity` to `value`, or removes it for null. */
function quotaRecord(
  entity: readonly ClientQuotaEntityPart[],
  key: string,
  value: number | null,
): MetadataRecord {
  const parts = entity.map(({ entityType, entityName }) => ({ entityType, entityName }));
  return {
    type: MetadataRecordType.ClientQuotaRecord,
    version: 0,
    data: { entity: parts, key, value: value ?? 0, remove: value === null },
  };
}

/** The entity as Kafka's ClientQuotaEntity prints it. */
function entityName(entity: readonly ClientQuotaEntityPart[]): string {
  const parts = entity.map(({ entityType, entityName }) => `${entityType}=${entityName}`);
  return `ClientQuotaEntity(entries={${parts.join(", ")}})`;
}
