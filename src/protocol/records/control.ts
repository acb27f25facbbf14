import { assert } from "../../common/index.js";
import { encodeBatch } from "./encode.js";
import { NO_SEQUENCE } from "./batch-header.js";

/**
 * Control records: the records of a batch whose control attribute is set. Their key is an int16
 * version and an int16 type. A transaction marker (ABORT, COMMIT) has the value int16 version,
 * int32 coordinatorEpoch; the KRaft types carry the data schemas LeaderChangeMessage,
 * SnapshotHeaderRecord, SnapshotFooterRecord, KRaftVersionRecord and VotersRecord, kept here
 * as bytes for the schema codec to read.
 */

/** The control record types Kafka defines, by their names in ControlRecordType. */
export type ControlRecordType =
  | "abort"
  | "commit"
  | "leaderChange"
  | "snapshotHeader"
  | "snapshotFooter"
  | "kraftVersion"
  | "kraftVoters";

/** The KRaft control types, whose values are schema-encoded data. */
export type KraftControlRecordType = Exclude<ControlRecordType, "abort" | "commit">;

const typeIds: Readonly<Record<ControlRecordType, number>> = {
  abort: 0,
  commit: 1,
  leaderChange: 2,
  snapshotHeader: 3,
  snapshotFooter: 4,
  kraftVersion: 5,
  kraftVoters: 6,
};
const typesById: readonly ControlRecordType[] = Object.keys(typeIds) as ControlRecordType[];

/** The key version this broker writes; Kafka reads newer versions' first four bytes alike. */
export const CONTROL_KEY_VERSION = 0;
/** The transaction marker value version Kafka writes. */
export const TRANSACTION_MARKER_VERSION = 0;
const CONTROL_KEY_BYTES = 4;
const TRANSACTION_MARKER_BYTES = 6;

export function controlTypeId(type: ControlRecordType): number {
  return typeIds[type];
}

export type ControlRecord =
  | {
      readonly type: "abort" | "commit";
      readonly keyVersion: number;
      readonly markerVersion: number;
      readonly coordinatorEpoch: number;
    }
  | {
      readonly type: KraftControlRecordType;
      readonly keyVersion: number;
      /** The schema-encoded value (e.g. LeaderChangeMessage), as a view of the batch. */
      readonly value: Uint8Array;
    }
  /** A type a newer Kafka may define; Kafka's consumers skip these, and so may ours. */
  | {
      readonly type: "unknown";
      readonly keyVersion: number;
      readonly typeId: number;
      readonly value: Uint8Array | null;
    };

/** The result of reading a control record; a refusal is INVALID_RECORD in Kafka's terms. */
export type ControlRecordResult<Value> =
  ({ readonly ok: true } & Value) | { readonly ok: false; readonly detail: string };

/** Reads a control record key: int16 version (not negative), int16 type. */
export function decodeControlRecordKey(
  key: Uint8Array | null,
): ControlRecordResult<{ readonly version: number; readonly typeId: number }> {
  if (key === null || key.length < CONTROL_KEY_BYTES) {
    return { ok: false, detail: "a control record key has at least four bytes" };
  }
  const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
  const version = view.getInt16(0);
  if (version < 0) return { ok: false, detail: `control record key version ${version}` };
  return { ok: true, version, typeId: view.getInt16(2) };
}

/** Encodes a control record key at the current version. */
export function encodeControlRecordKey(type: ControlRecordType): Uint8Array {
  const key = new Uint8Array(CONTROL_KEY_BYTES);
  const view = new DataView(key.buffer);
  view.setInt16(0, CONTROL_KEY_VERSION);
  view.setInt16(2, typeIds[type]);
  return key;
}

/** Reads a transaction marker value: int16 version, int32 coordinatorEpoch. */
export function decodeTransactionMarker(
  value: Uint8Array | null,
): ControlRecordResult<{ readonly version: number; readonly coordinatorEpoch: number }> {
  if (value === null || value.length < TRANSACTION_MARKER_BYTES) {
    return { ok: false, detail: "a transaction marker value has at least six bytes" };
  }
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const version = view.getInt16(0);
  if (version < 0) return { ok: false, detail: `transaction marker version ${version}` };
  // A newer version is read as version 0, as Kafka's EndTransactionMarker does.
  return { ok: true, version, coordinatorEpoch: view.getInt32(2) };
}

/** Encodes a transaction marker value at the current version. */
export function encodeTransactionMarker(coordinatorEpoch: number): Uint8Array {
  assert(Number.isInteger(coordinatorEpoch), "coordinator epoch is an int32");
  const value = new Uint8Array(TRANSACTION_MARKER_BYTES);
  const view = new DataView(value.buffer);
  view.setInt16(0, TRANSACTION_MARKER_VERSION);
  view.setInt32(2, coordinatorEpoch);
  return value;
}

export function decodeControlRecord(record: {
  readonly key: Uint8Array | null;
  readonly value: Uint8Array | null;
}): ControlRecordResult<{ readonly control: ControlRecord }> {
  const key = decodeControlRecordKey(record.key);
  if (!key.ok) return key;
  const type = typesById[key.typeId];
  if (type === undefined || key.typeId < 0) {
    const { version: keyVersion, typeId } = key;
    return { ok: true, control: { type: "unknown", keyVersion, typeId, value: record.value } };
  }
  if (type === "abort" || type === "commit") {
    const marker = decodeTransactionMarker(record.value);
    if (!marker.ok) return marker;
    const { version: markerVersion, coordinatorEpoch } = marker;
    const keyVersion = key.version;
    return { ok: true, control: { type, keyVersion, markerVersion, coordinatorEpoch } };
  }
  if (record.value === null) return { ok: false, detail: `a ${type} record has a value` };
  return { ok: true, control: { type, keyVersion: key.version, value: record.value } };
}

/**
 * Builds the control batch a partition leader appends for WriteTxnMarkers: transactional,
 * uncompressed, one COMMIT or ABORT record, and no sequence, as Kafka's
 * MemoryRecords.withEndTransactionMarker.
 */
export function encodeTransactionMarkerBatch(options: {
  readonly baseOffset: number;
  readonly partitionLeaderEpoch: number;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly type: "abort" | "commit";
  readonly timestamp: number;
}): Uint8Array {
  return encodeBatch({
    baseOffset: options.baseOffset,
    partitionLeaderEpoch: options.partitionLeaderEpoch,
    compression: "none",
    timestampType: "createTime",
    isTransactional: true,
    isControl: true,
    producerId: options.producerId,
    producerEpoch: options.producerEpoch,
    baseSequence: NO_SEQUENCE,
    records: [
      {
        timestamp: options.timestamp,
        key: encodeControlRecordKey(options.type),
        value: encodeTransactionMarker(options.coordinatorEpoch),
      },
    ],
  });
}
