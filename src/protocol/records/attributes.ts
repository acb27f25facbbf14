/**
 * The attributes field of a record batch v2 (int16): compression codec in bits 0-2, timestamp
 * type in bit 3, transactional in bit 4, control in bit 5 and the delete-horizon flag in bit 6
 * (KIP-534). The remaining bits are unused and written as zero.
 */

/** A compression codec a batch may use, named as in Kafka's `compression.type`. */
export type CompressionType = "none" | "gzip" | "snappy" | "lz4" | "zstd";

/** How the timestamps of a batch were assigned: by the producer or by the broker on append. */
export type TimestampType = "createTime" | "logAppendTime";

/** The codec ids of the attributes' low three bits, in Kafka's order. */
const compressionIds: readonly CompressionType[] = ["none", "gzip", "snappy", "lz4", "zstd"];

/** Every codec, in id order. */
export const compressionTypes: readonly CompressionType[] = compressionIds;

const COMPRESSION_MASK = 0x07;
const TIMESTAMP_TYPE_BIT = 0x08;
const TRANSACTIONAL_BIT = 0x10;
const CONTROL_BIT = 0x20;
const DELETE_HORIZON_BIT = 0x40;

export interface BatchAttributes {
  readonly compression: CompressionType;
  readonly timestampType: TimestampType;
  readonly isTransactional: boolean;
  readonly isControl: boolean;
  readonly hasDeleteHorizon: boolean;
}

/** The codec id (0-7) stored in `attributes`; ids 5-7 name no codec. */
export function compressionIdOf(attributes: number): number {
  return attributes & COMPRESSION_MASK;
}

/** The codec for an id, or undefined for ids no Kafka version defines. */
export function compressionForId(id: number): CompressionType | undefined {
  return compressionIds[id];
}

export function compressionIdFor(compression: CompressionType): number {
  return compressionIds.indexOf(compression);
}

export function timestampTypeOf(attributes: number): TimestampType {
  return (attributes & TIMESTAMP_TYPE_BIT) === 0 ? "createTime" : "logAppendTime";
}

export function isTransactionalAttribute(attributes: number): boolean {
  return (attributes & TRANSACTIONAL_BIT) !== 0;
}

/** Whether `attributes` marks a control batch (transaction markers, KRaft control records). */
export function isControlAttribute(attributes: number): boolean {
  return (attributes & CONTROL_BIT) !== 0;
}

/** Whether `attributes` says that baseTimestamp holds the delete horizon (KIP-534). */
export function hasDeleteHorizonAttribute(attributes: number): boolean {
  return (attributes & DELETE_HORIZON_BIT) !== 0;
}

/** Builds the int16 attributes value from its parts. */
export function encodeAttributes(parts: BatchAttributes): number {
  let attributes = compressionIdFor(parts.compression);
  if (parts.timestampType === "logAppendTime") attributes |= TIMESTAMP_TYPE_BIT;
  if (parts.isTransactional) attributes |= TRANSACTIONAL_BIT;
  if (parts.isControl) attributes |= CONTROL_BIT;
  if (parts.hasDeleteHorizon) attributes |= DELETE_HORIZON_BIT;
  return attributes;
}

/** Replaces the timestamp-type bit of `attributes`, keeping the other bits. */
export function withTimestampType(attributes: number, timestampType: TimestampType): number {
  const cleared = attributes & ~TIMESTAMP_TYPE_BIT;
  return timestampType === "logAppendTime" ? cleared | TIMESTAMP_TYPE_BIT : cleared;
}
