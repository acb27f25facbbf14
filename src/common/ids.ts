/**
 * Branded numeric ids, so that a BrokerId cannot be passed where an Offset is expected. Brands
 * exist only at compile time; at run time each is a plain number or string.
 */
export type BrokerId = number & { readonly __brand: "BrokerId" };
export type NodeId = BrokerId;
export type Offset = number & { readonly __brand: "Offset" };
export type LeaderEpoch = number & { readonly __brand: "LeaderEpoch" };
export type PartitionIndex = number & { readonly __brand: "PartitionIndex" };
export type ProducerId = number & { readonly __brand: "ProducerId" };
/** A Kafka UUID (topic id, directory id, cluster id) in its 16-byte form as 32 hex digits. */
export type Uuid = string & { readonly __brand: "Uuid" };

export const brokerId = (n: number): BrokerId => n as BrokerId;
export const offset = (n: number): Offset => n as Offset;
export const leaderEpoch = (n: number): LeaderEpoch => n as LeaderEpoch;
export const partitionIndex = (n: number): PartitionIndex => n as PartitionIndex;
export const producerId = (n: number): ProducerId => n as ProducerId;
