/**
 * meta.properties, the identity file at the top of every log dir, as Kafka's KRaft mode writes it:
 * version 1 with cluster.id and node.id, and optionally directory.id. A node refuses to start on a
 * log dir that belongs to another cluster or node. Pure; meta-properties.driver.ts does the I/O.
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

/** The text of meta.properties for `properties`, dated `nowMs` in its second comment line. */
export function formatMetaProperties(properties: MetaProperties, nowMs: number): string {
  const entries = new Map<string, string>();
  entries.set("cluster.id", properties.clusterId);
  if (properties.directoryId !== undefined) {
    entries.set("directory.id", uuidToBase64(properties.directoryId));
  }
  entries.set("node.id", String(properties.nodeId));
  entries.set("version", String(properties.version));
  // Properties.store writes the (empty) comment Kafka passes, then the date.
  return formatProperties(entries, ["", formatJavaDate(nowMs)]);
}

/**
 * The identity in meta.properties text, validated as Kafka's MetaProperties: version 1 needs
 * node.id and cluster.id; version 0 (ZooKeeper mode) is not supported.
 */
export function parseMetaProperties(text: string): ParseResult<MetaProperties> {
  const properties = parseProperties(text);
  const versionText = properties.get("version") ?? "0";
  if (parseDecimal(versionText) !== 1) {
    return malformed(`unsupported meta.properties version ${JSON.stringify(versionText)}`);
  }
  const clusterId = properties.get("cluster.id");
  if (clusterId === undefined || clusterId === "") return malformed("cluster.id is missing");
  const nodeIdText = properties.get("node.id");
  if (nodeIdText === undefined) return malformed("node.id is missing");
  const nodeId = parseDecimal(nodeIdText);
  if (nodeId === undefined || nodeId < 0 || nodeId > 0x7fffffff) {
    return malformed(`node.id is not a node id: ${JSON.stringify(nodeIdText)}`);
  }
  const directoryIdText = properties.get("directory.id");
  if (directoryIdText === undefined) {
    return parsed({ version: 1, clusterId, nodeId: brokerId(nodeId) });
  }
  const directoryId = uuidFromBase64(directoryIdText);
  if (directoryId === undefined) {
    return malformed(`directory.id is not a Uuid: ${JSON.stringify(directoryIdText)}`);
  }
  return parsed({ version: 1, clusterId, nodeId: brokerId(nodeId), directoryId });
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
