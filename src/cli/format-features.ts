/**
 * The feature levels `sluice format --feature NAME=LEVEL` starts a new cluster with (KIP-1022,
 * as Kafka's storage tool): each is checked against the levels the nodes run, the rest get their
 * defaults, and the resulting FeatureLevelRecords go into the bootstrap file of the metadata log
 * dir, which the first active controller writes into an empty metadata log. E.g.
 * `--feature eligible.leader.replicas.version=1` turns eligible leader replicas (KIP-966) on.
 */
import {
  bootstrapChoiceOf,
  bootstrapRecords,
  METADATA_VERSION,
  type BootstrapOptions,
} from "../controller/index.js";
import type { NodeConfig } from "../main/index.js";
import { encodeMetadataRecord } from "../protocol/index.js";
import { writeBootstrapMetadata } from "../raft/index.js";
import type { FormatIo } from "./format.js";

const ASSIGNMENT = /^([A-Za-z0-9._-]+)=(\d+)$/;

/** The bootstrap options the `--feature` values ask for, or why they cannot be had. */
export function bootstrapOptionsOf(values: readonly string[]):
  | { readonly kind: "valid"; readonly options: BootstrapOptions }
  | {
      readonly kind: "invalid";
      readonly message: string;
    } {
  const levels = new Map<string, number>();
  for (const value of values) {
    const match = ASSIGNMENT.exec(value.trim());
    if (match === null) return { kind: "invalid", message: `--feature ${value} is not NAME=LEVEL` };
    const name = match[1] as string;
    if (levels.has(name)) return { kind: "invalid", message: `--feature ${name} is given twice` };
    levels.set(name, Number(match[2]));
  }
  return bootstrapChoiceOf(levels);
}

/** Writes the bootstrap file of `options` into the metadata log dir just formatted. */
export async function writeBootstrapFeatures(
  config: NodeConfig,
  options: BootstrapOptions,
  io: FormatIo,
): Promise<void> {
  const records = bootstrapRecords(options);
  await writeBootstrapMetadata(io.fileSystem, {
    metadataLogDir: config.log.metadataLogDir,
    records: records.map((record) => encodeMetadataRecord(record)),
    timestamp: io.clock.nowMs(),
  });
  const levels = [
    `${METADATA_VERSION}=${options.metadataVersion}`,
    ...(options.features ?? []).map((feature) => `${feature.name}=${feature.level}`),
  ];
  io.write(`Bootstrap metadata written with ${levels.join(", ")}.`);
}
