/**
 * The KRaft control batches the node writes (LeaderChange, VotersRecord, and the snapshot's
 * SnapshotHeader, KRaftVersion, Voters and SnapshotFooter records) and the reading of control
 * records out of batches a follower appends or a snapshot download brings.
 */
import { assert, ZERO_UUID } from "../common/index.js";
import {
  decodeControlRecord,
  decodeKraftControlValue,
  decodeRecords,
  encodeBatch,
  encodeControlRecordKey,
  encodeKRaftVersionRecord,
  encodeLeaderChangeMessage,
  encodeSnapshotFooterRecord,
  encodeSnapshotHeaderRecord,
  encodeVotersRecord,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  type KraftControlRecordType,
  type KraftControlValue,
  type NewRecord,
} from "../protocol/index.js";
import type { ReplicaKey } from "./types.js";
import type { VoterSet } from "./voter-set.js";

/** A KRaft control record found in the log or a snapshot, with its offset. */
export interface LoggedControlRecord {
  readonly offset: number;
  readonly value: KraftControlValue;
}

function controlRecord(
  type: KraftControlRecordType,
  value: Uint8Array,
  timestamp: number,
): NewRecord {
  return { timestamp, key: encodeControlRecordKey(type), value };
}

function controlBatch(options: {
  readonly baseOffset: number;
  readonly epoch: number;
  readonly records: readonly NewRecord[];
}): { bytes: Uint8Array; recordCount: number } {
  const bytes = encodeBatch({
    baseOffset: options.baseOffset,
    partitionLeaderEpoch: options.epoch,
    compression: "none",
    timestampType: "createTime",
    isTransactional: false,
    isControl: true,
    producerId: NO_PRODUCER_ID,
    producerEpoch: -1,
    baseSequence: NO_SEQUENCE,
    records: options.records,
  });
  return { bytes, recordCount: options.records.length };
}

/**
 * The LeaderChange batch a new leader writes first in its epoch: its id, the voters, and the
 * voters that granted it their vote. Version 1 (with directory ids) under kraft.version 1.
 */
export function leaderChangeBatch(options: {
  readonly baseOffset: number;
  readonly epoch: number;
  readonly leaderId: number;
  readonly voters: readonly ReplicaKey[];
  readonly grantingVoters: readonly ReplicaKey[];
  readonly kraftVersion: number;
  readonly timestamp: number;
  /**
   * The voter set when it is not in the log yet, known only from the bootstrap checkpoint or
   * the configuration (KIP-853): the batch then also carries a KRaftVersion and a Voters
   * record, so the set reaches every replica's log.
   */
  readonly bootstrapVoters?: VoterSet;
}): { bytes: Uint8Array; recordCount: number } {
  const version = options.kraftVersion >= 1 ? 1 : 0;
  const toVoter = (key: ReplicaKey): { voterId: number; voterDirectoryId: string } => ({
    voterId: key.id,
    voterDirectoryId: key.directoryId ?? ZERO_UUID,
  });
  const value = encodeLeaderChangeMessage(version, {
    version,
    leaderId: options.leaderId,
    voters: options.voters.map(toVoter),
    grantingVoters: options.grantingVoters.map(toVoter),
  });
  const records = [controlRecord("leaderChange", value, options.timestamp)];
  if (options.bootstrapVoters !== undefined) {
    assert(options.kraftVersion >= 1, "only kraft.version 1 writes the voter set to the log");
    records.push(
      ...kraftStateRecords(options.kraftVersion, options.bootstrapVoters, options.timestamp),
    );
  }
  return controlBatch({ baseOffset: options.baseOffset, epoch: options.epoch, records });
}

/** A KRaftVersion and a Voters record: the kraft.version and voter set in force. */
function kraftStateRecords(kraftVersion: number, voters: VoterSet, timestamp: number): NewRecord[] {
  const kraft = encodeKRaftVersionRecord(0, { version: 0, kRaftVersion: kraftVersion });
  const votersValue = encodeVotersRecord(0, voters.toVotersRecord());
  return [
    controlRecord("kraftVersion", kraft, timestamp),
    controlRecord("kraftVoters", votersValue, timestamp),
  ];
}

/** A batch holding one VotersRecord: the voter set from this record on (KIP-853). */
export function votersBatch(options: {
  readonly baseOffset: number;
  readonly epoch: number;
  readonly voters: VoterSet;
  readonly timestamp: number;
}): { bytes: Uint8Array; recordCount: number } {
  const value = encodeVotersRecord(0, options.voters.toVotersRecord());
  const records = [controlRecord("kraftVoters", value, options.timestamp)];
  return controlBatch({ baseOffset: options.baseOffset, epoch: options.epoch, records });
}

/**
 * The first batch of a snapshot file (KIP-630, KIP-853): a SnapshotHeader record, then under
 * kraft.version 1 the KRaftVersion and Voters records in force at the snapshot's end offset.
 */
export function snapshotHeaderBatch(options: {
  readonly epoch: number;
  readonly lastContainedLogTimestamp: number;
  readonly kraftVersion: number;
  readonly voters: VoterSet;
}): Uint8Array {
  const timestamp = options.lastContainedLogTimestamp;
  const header = encodeSnapshotHeaderRecord(0, {
    version: 0,
    lastContainedLogTimestamp: timestamp,
  });
  const records = [controlRecord("snapshotHeader", header, timestamp)];
  if (options.kraftVersion >= 1) {
    records.push(...kraftStateRecords(options.kraftVersion, options.voters, timestamp));
  }
  return controlBatch({ baseOffset: 0, epoch: options.epoch, records }).bytes;
}

/** The last batch of a snapshot file: one SnapshotFooter record at `baseOffset`. */
export function snapshotFooterBatch(options: {
  readonly baseOffset: number;
  readonly epoch: number;
  readonly timestamp: number;
}): Uint8Array {
  const footer = encodeSnapshotFooterRecord(0, { version: 0 });
  const records = [controlRecord("snapshotFooter", footer, options.timestamp)];
  return controlBatch({ baseOffset: options.baseOffset, epoch: options.epoch, records }).bytes;
}

/** The largest control batch the node decodes (control batches are small). */
const CONTROL_DECOMPRESSION_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * The KRaft control records of one control batch, in offset order. A batch that does not
 * decode is a broken invariant here: the leader validated what it wrote and what it sends.
 */
export function controlRecordsOf(batch: Uint8Array): LoggedControlRecord[] {
  const decoded = decodeRecords(batch, { maxDecompressedBytes: CONTROL_DECOMPRESSION_LIMIT_BYTES });
  assert(decoded.ok, "a control batch from the log decodes");
  const found: LoggedControlRecord[] = [];
  for (const record of decoded.records) {
    const control = decodeControlRecord(record);
    assert(control.ok, "a control record from the log decodes");
    const kraft = control.control;
    if (kraft.type === "abort" || kraft.type === "commit" || kraft.type === "unknown") continue;
    // The checks above leave only the KRaft types, which TypeScript cannot narrow to here.
    const value = decodeKraftControlValue(
      kraft as { type: KraftControlRecordType; value: Uint8Array },
    );
    assert(value.ok, "a KRaft control value from the log decodes");
    found.push({ offset: record.offset, value: value.decoded });
  }
  return found;
}
