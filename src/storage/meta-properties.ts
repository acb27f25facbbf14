/**
 * meta.properties, the identity file at the top of every log dir, as Kafka's KRaft mode writes it:
 * version 1 with cluster.id and node.id, and optionally directory.id. A node refuses to start on a
 * log dir that belongs to another cluster or node. A Sluice extension lets a broker's dir be
 * formatted without node.id (with a directory.id), to be filled in with the id the controller
 * assigns at the first registration (docs/decisions/0006). Pure; meta-properties.driver.ts does
 * the I/O.
 */
import { brokerId, uuidFromBase64, uuidToBase64, type NodeId, type Uuid } from "../common/index.js";
import { parseDecimal } from "./checkpoint-format.js";
import { formatJavaDate, formatProperties, parseProperties } from "./java-properties.js";
import { malformed, parsed, type ParseResult } from "./malformed-file-error.js";

/** The name of the identity file in each log dir. */
export const META_PROPERTIES_FILE = "meta.properties";

/** The identity a log dir records (meta.properties version 1). */
export interface MetaProperties {
  readonly version: 1;
  readonly clusterId: string;
  readonly nodeId: NodeId;
  /** The dir's own id (KIP-858); absent in files written before Kafka 3.7. */
  readonly directoryId?: Uuid;
}

/**
 * The identity of a broker's dir formatted without node.id (a Sluice extension): the broker
 * registers with -1 and writes the id the controller gives it into the file. The directory id is
 * required, because the broker registers the dir under it before it has a node id.
 */
export interface UnassignedMetaProperties {
  readonly version: 1;
  readonly clusterId: string;
  readonly directoryId: Uuid;
}

/** What a dir's meta.properties records: a node's identity, or one still waiting for its id. */
export type StoredMetaProperties =
  | { readonly kind: "assigned"; readonly properties: MetaProperties }
  | { readonly kind: "unassigned"; readonly properties: UnassignedMetaProperties };

/** The text of meta.properties for `properties`, dated `nowMs` in its second comment line. */
export function formatMetaProperties(
  properties: MetaProperties | UnassignedMetaProperties,
  nowMs: number,
): string {
  const entries = new Map<string, string>();
  entries.set("cluster.id", properties.clusterId);
  if (properties.directoryId !== undefined) {
    entries.set("directory.id", uuidToBase64(properties.directoryId));
  }
  if ("nodeId" in properties) entries.set("node.id", String(properties.nodeId));
  entries.set("version", String(properties.version));
  // Properties.store writes the (empty) comment Kafka passes, then the date.
  return formatProperties(entries, ["", formatJavaDate(nowMs)]);
}

/**
 * The identity in meta.properties text, validated as Kafka's MetaProperties: version 1 needs
 * node.id and cluster.id; version 0 (ZooKeeper mode) is not supported. A dir still waiting for
 * its assigned id is refused here: only the broker's start-up may read it, with
 * parseStoredMetaProperties.
 */
export function parseMetaProperties(text: string): ParseResult<MetaProperties> {
  const stored = parseStoredMetaProperties(text);
  if (stored.kind === "malformed") return stored;
  if (stored.value.kind === "unassigned") return malformed("node.id is missing");
  return parsed(stored.value.properties);
}

/**
 * The identity in meta.properties text, accepting a broker's dir formatted without node.id when
 * it has a directory.id (the Sluice extension in the file comment).
 */
export function parseStoredMetaProperties(text: string): ParseResult<StoredMetaProperties> {
  const properties = parseProperties(text);
  const versionText = properties.get("version") ?? "0";
  if (parseDecimal(versionText) !== 1) {
    return malformed(`unsupported meta.properties version ${JSON.stringify(versionText)}`);
  }
  const clusterId = properties.get("cluster.id");
  if (clusterId === undefined || clusterId === "") return malformed("cluster.id is missing");
  const directoryIdText = properties.get("directory.id");
  const directoryId = directoryIdText === undefined ? undefined : uuidFromBase64(directoryIdText);
  if (directoryIdText !== undefined && directoryId === undefined) {
    return malformed(`directory.id is not a Uuid: ${JSON.stringify(directoryIdText)}`);
  }
  const nodeIdText = properties.get("node.id");
  if (nodeIdText === undefined) {
    if (directoryId === undefined) return malformed("node.id is missing");
    return parsed({ kind: "unassigned", properties: { version: 1, clusterId, directoryId } });
  }
  const nodeId = parseDecimal(nodeIdText);
  if (nodeId === undefined || nodeId < 0 || nodeId > 0x7fffffff) {
    return malformed(`node.id is not a node id: ${JSON.stringify(nodeIdText)}`);
  }
  const identity = { version: 1 as const, clusterId, nodeId: brokerId(nodeId) };
  const assigned = directoryId === undefined ? identity : { ...identity, directoryId };
  return parsed({ kind: "assigned", properties: assigned });
}

/** The identity a node expects to find in each of its log dirs. */
export interface ExpectedIdentity {
  readonly clusterId: string;
  readonly nodeId: NodeId;
}

/** Whether a log dir's meta.properties belongs to the expected cluster and node. */
export type IdentityCheck =
  | { readonly kind: "match" }
  | { readonly kind: "clusterIdMismatch"; readonly expected: string; readonly found: string }
  | { readonly kind: "nodeIdMismatch"; readonly expected: NodeId; readonly found: NodeId };

/** Compares a dir's identity with the node's; the cluster id is checked first, as Kafka does. */
export function checkIdentity(found: MetaProperties, expected: ExpectedIdentity): IdentityCheck {
  if (found.clusterId !== expected.clusterId) {
    return { kind: "clusterIdMismatch", expected: expected.clusterId, found: found.clusterId };
  }
  if (found.nodeId !== expected.nodeId) {
    return { kind: "nodeIdMismatch", expected: expected.nodeId, found: found.nodeId };
  }
  return { kind: "match" };
}

/** A log dir belongs to another cluster or node; the node must not start on it. */
export class LogDirIdentityError extends Error {
  override readonly name = "LogDirIdentityError";
  constructor(
    readonly logDir: string,
    readonly mismatch: Exclude<IdentityCheck, { kind: "match" }>,
  ) {
    super(describeMismatch(logDir, mismatch));
  }
}

function describeMismatch(
  logDir: string,
  mismatch: Exclude<IdentityCheck, { kind: "match" }>,
): string {
  const what = mismatch.kind === "clusterIdMismatch" ? "cluster.id" : "node.id";
  return (
    `log dir ${logDir} belongs to ${what} ${mismatch.found}, but this node is configured ` +
    `with ${what} ${mismatch.expected}; refusing to use it`
  );
}
