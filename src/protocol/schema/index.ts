// The schema-driven codec engine and the non-API schemas it serves: metadata records,
// coordinator records, data schemas (control records, consumer protocol) and the quorum state.
export type {
  FieldSchema,
  FieldType,
  MessageInput,
  MessageKind,
  MessageSchema,
  PrimitiveType,
  StructSchema,
  TaggedField,
  VersionRange,
} from "./types.js";
export { VERSION_MAX, inRange } from "./types.js";
export {
  decodeMessage,
  decodeWholeMessage,
  encodeMessage,
  expectEnd,
  isFlexibleVersion,
  isValidVersion,
} from "./message-codec.js";
export {
  METADATA_FRAME_VERSION,
  decodeMetadataRecord,
  encodeMetadataRecord,
  metadataRecordSchema,
} from "./metadata-records.js";
export type {
  MetadataRecord,
  MetadataRecordInput,
  MetadataRecordTypeNumber,
} from "./metadata-records.js";
export {
  coordinatorRecordSchemas,
  decodeCoordinatorKey,
  decodeCoordinatorValue,
  encodeCoordinatorKey,
  encodeCoordinatorValue,
} from "./coordinator-records.js";
export type {
  CoordinatorKey,
  CoordinatorLog,
  CoordinatorRecordSchemas,
  CoordinatorValue,
} from "./coordinator-records.js";
export {
  dataSchema,
  decodeData,
  decodeKRaftVersionRecord,
  decodeLeaderChangeMessage,
  decodeSnapshotFooterRecord,
  decodeSnapshotHeaderRecord,
  decodeVersionPrefixed,
  decodeVotersRecord,
  encodeData,
  encodeKRaftVersionRecord,
  encodeLeaderChangeMessage,
  encodeSnapshotFooterRecord,
  encodeSnapshotHeaderRecord,
  encodeVersionPrefixed,
  encodeVotersRecord,
} from "./data-records.js";
export { quorumStateFromJson, quorumStateToJson } from "./quorum-state.js";
export type { QuorumStateFile } from "./quorum-state.js";
export * from "./generated/index.js";
