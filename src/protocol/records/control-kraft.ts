import { isDecodeError } from "../codec/decode-error.js";
import {
  decodeKRaftVersionRecord,
  decodeLeaderChangeMessage,
  decodeSnapshotFooterRecord,
  decodeSnapshotHeaderRecord,
  decodeVotersRecord,
  type KRaftVersionRecord,
  type LeaderChangeMessage,
  type SnapshotFooterRecord,
  type SnapshotHeaderRecord,
  type VotersRecord,
} from "../schema/index.js";
import type { ControlRecordResult, KraftControlRecordType } from "./control.js";

/** A KRaft control record's value, decoded with the schema codec. */
export type KraftControlValue =
  | { readonly type: "leaderChange"; readonly data: LeaderChangeMessage }
  | { readonly type: "snapshotHeader"; readonly data: SnapshotHeaderRecord }
  | { readonly type: "snapshotFooter"; readonly data: SnapshotFooterRecord }
  | { readonly type: "kraftVersion"; readonly data: KRaftVersionRecord }
  | { readonly type: "kraftVoters"; readonly data: VotersRecord };

/** The highest version of each value schema that Kafka 4.0 defines. */
const highestVersions: Readonly<Record<KraftControlRecordType, number>> = {
  leaderChange: 1,
  snapshotHeader: 0,
  snapshotFooter: 0,
  kraftVersion: 0,
  kraftVoters: 0,
};

/**
 * Decodes the value of a KRaft control record (LeaderChangeMessage, SnapshotHeaderRecord,
 * SnapshotFooterRecord, KRaftVersionRecord, VotersRecord). Each schema begins with its own int16
 * Version field, so the value says which version to read it at; a version above the highest
 * known is read at the highest known, its additions being tagged fields (all are flexible).
 */
export function decodeKraftControlValue(control: {
  readonly type: KraftControlRecordType;
  readonly value: Uint8Array;
}): ControlRecordResult<{ readonly decoded: KraftControlValue }> {
  if (control.value.length < 2) return { ok: false, detail: `a ${control.type} value is empty` };
  const declared = new DataView(control.value.buffer, control.value.byteOffset).getInt16(0);
  if (declared < 0) return { ok: false, detail: `${control.type} version ${declared}` };
  const version = Math.min(declared, highestVersions[control.type]);
  try {
    return { ok: true, decoded: decodeAt(control.type, version, control.value) };
  } catch (cause) {
    if (isDecodeError(cause)) return { ok: false, detail: `${control.type}: ${cause.message}` };
    throw cause;
  }
}

function decodeAt(
  type: KraftControlRecordType,
  version: number,
  bytes: Uint8Array,
): KraftControlValue {
  switch (type) {
    case "leaderChange":
      return { type, data: decodeLeaderChangeMessage(version, bytes) };
    case "snapshotHeader":
      return { type, data: decodeSnapshotHeaderRecord(version, bytes) };
    case "snapshotFooter":
      return { type, data: decodeSnapshotFooterRecord(version, bytes) };
    case "kraftVersion":
      return { type, data: decodeKRaftVersionRecord(version, bytes) };
    case "kraftVoters":
      return { type, data: decodeVotersRecord(version, bytes) };
  }
}
