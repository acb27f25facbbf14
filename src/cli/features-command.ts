/**
 * `sluice features describe | upgrade | downgrade | disable`, as kafka-features.sh: the levels
 * the brokers can run and the cluster's finalized levels (ApiVersions), and changes of them
 * (UpdateFeatures, forwarded by any broker to the controller). `--feature NAME=LEVEL` repeats;
 * `--metadata VERSION` names a metadata.version by its release (`3.7` is its newest level,
 * `3.7-IV2` one level); `--dry-run` asks the controller to check without changing anything;
 * `--unsafe` asks for a lossy downgrade, which the controller refuses for metadata.version.
 */
import { ErrorCode } from "../common/index.js";
import { apiVersions, updateFeatures } from "../protocol/index.js";
import { EXIT } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { printRows, type AdminCommand, type AdminIo, type AdminOptions } from "./admin-command.js";

const METADATA_VERSION = "metadata.version";

/** Kafka's metadata.version levels that Sluice runs, with their release names. */
const METADATA_VERSION_NAMES: ReadonlyMap<number, string> = new Map([
  [7, "3.3-IV3"],
  [8, "3.4-IV0"],
  [9, "3.5-IV0"],
  [10, "3.5-IV1"],
  [11, "3.5-IV2"],
  [12, "3.6-IV0"],
  [13, "3.6-IV1"],
  [14, "3.6-IV2"],
  [15, "3.7-IV0"],
  [16, "3.7-IV1"],
  [17, "3.7-IV2"],
  [18, "3.7-IV3"],
  [19, "3.7-IV4"],
  [20, "3.8-IV0"],
  [21, "3.9-IV0"],
  [22, "4.0-IV0"],
]);

const UPGRADE_TYPES = { upgrade: 1, safeDowngrade: 2, unsafeDowngrade: 3 } as const;

export const FEATURES_COMMAND: AdminCommand = {
  name: "features",
  usage:
    "usage: sluice features describe | upgrade|downgrade (--feature NAME=LEVEL ... | " +
    "--metadata VERSION) [--dry-run] [--unsafe] | disable --feature NAME ... [--dry-run]",
  help: [
    "  describe   each feature: the levels the brokers run and the finalized level",
    "  upgrade    raises finalized levels; downgrade lowers them (--unsafe: even if lossy)",
    "  disable    sets features to level 0 (eligible.leader.replicas.version=0 turns ELR off)",
    "  --metadata VERSION sets metadata.version by release, e.g. 3.9 or 3.7-IV2",
    "  --dry-run  the controller checks the change and changes nothing",
  ],
  subcommands: ["describe", "upgrade", "downgrade", "disable"],
  options: {
    booleans: ["--dry-run", "--unsafe"],
    values: ["--metadata"],
    repeatable: ["--feature"],
  },
  errorPrefix: "Error: ",
  isRetried: () => true,
  run: (subcommand, session, options, io) =>
    subcommand === "describe"
      ? describeFeatures(session, options, io)
      : updateFeatureLevels(subcommand, session, options, io),
};

/** `name (level)`, with the release name of a metadata.version level. */
function levelText(feature: string, level: number): string {
  const name = feature === METADATA_VERSION ? METADATA_VERSION_NAMES.get(level) : undefined;
  return name === undefined ? `${level}` : `${level} (${name})`;
}

async function describeFeatures(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const body = { clientSoftwareName: "sluice-cli", clientSoftwareVersion: "1" };
  const answer = await session.send(apiVersions, body, { maxVersion: 4 });
  if (answer.errorCode !== ErrorCode.NONE) throw kafkaFailure(answer.errorCode);
  const finalized = new Map(answer.finalizedFeatures.map((f) => [f.name, f.maxVersionLevel]));
  const rows = answer.supportedFeatures
    .map((feature) => {
      const level = finalized.get(feature.name) ?? 0;
      return {
        FEATURE: feature.name,
        SUPPORTED_MIN: levelText(feature.name, feature.minVersion),
        SUPPORTED_MAX: levelText(feature.name, feature.maxVersion),
        FINALIZED: levelText(feature.name, level),
        EPOCH: answer.finalizedFeaturesEpoch,
      };
    })
    .sort((a, b) => a.FEATURE.localeCompare(b.FEATURE));
  const headers = ["FEATURE", "SUPPORTED_MIN", "SUPPORTED_MAX", "FINALIZED", "EPOCH"];
  printRows(io, options, headers, rows);
  return EXIT.ok;
}

/** The level `text` names for metadata.version: `22`, `4.0-IV0`, or `3.7` (its newest). */
export function metadataVersionLevel(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const named = [...METADATA_VERSION_NAMES].filter(
    ([, name]) => name === text || name.startsWith(`${text}-IV`),
  );
  const last = named.at(-1);
  if (last === undefined) {
    const known = [...new Set([...METADATA_VERSION_NAMES.values()].map((n) => n.split("-")[0]))];
    throw new CommandFailure(`Unknown metadata.version ${text}; known: ${known.join(", ")}`);
  }
  return last[0];
}

/** The updates the options ask for, with the upgrade type of `subcommand`. */
function requestedUpdates(subcommand: string, options: AdminOptions) {
  const isUnsafe = options.booleans.has("--unsafe");
  const upgradeType =
    subcommand === "upgrade"
      ? UPGRADE_TYPES.upgrade
      : isUnsafe
        ? UPGRADE_TYPES.unsafeDowngrade
        : UPGRADE_TYPES.safeDowngrade;
  if (subcommand === "upgrade" && isUnsafe) {
    throw new CommandFailure("--unsafe is only for downgrade and disable");
  }
  const levels: [string, number][] = [];
  for (const text of options.repeated.get("--feature") ?? []) {
    if (subcommand === "disable") {
      levels.push([text, 0]);
      continue;
    }
    const match = /^([^=]+)=(\d+)$/.exec(text);
    if (match === null) throw new CommandFailure(`--feature ${text}: expected NAME=LEVEL`);
    levels.push([match[1] ?? "", Number(match[2])]);
  }
  const metadata = options.values.get("--metadata");
  if (metadata !== undefined) {
    if (subcommand === "disable") throw new CommandFailure("metadata.version cannot be disabled");
    levels.push([METADATA_VERSION, metadataVersionLevel(metadata)]);
  }
  if (levels.length === 0) {
    throw new CommandFailure(`sluice features ${subcommand} needs --feature or --metadata`);
  }
  // Sent at v1 or later (every Sluice broker serves 0-2), where the upgrade type says it all.
  return levels.map(([feature, maxVersionLevel]) => ({ feature, maxVersionLevel, upgradeType }));
}

async function updateFeatureLevels(
  subcommand: string,
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const updates = requestedUpdates(subcommand, options);
  const isDryRun = options.booleans.has("--dry-run");
  const body = { timeoutMs: 30_000, featureUpdates: updates, validateOnly: isDryRun };
  const answer = await session.send(updateFeatures, body, { maxVersion: 2 });
  const verb =
    subcommand === "upgrade" ? "upgraded" : subcommand === "disable" ? "disabled" : "downgraded";
  const rows = updates.map(({ feature, maxVersionLevel }) => ({
    FEATURE: feature,
    LEVEL: levelText(feature, maxVersionLevel),
    RESULT:
      answer.errorCode === ErrorCode.NONE ? (isDryRun ? `can be ${verb}` : verb) : `not ${verb}`,
  }));
  printRows(io, options, ["FEATURE", "LEVEL", "RESULT"], rows);
  if (answer.errorCode === ErrorCode.NONE) return EXIT.ok;
  io.error(`Error: ${kafkaFailure(answer.errorCode, answer.errorMessage).message}`);
  return EXIT.failed;
}
