/**
 * The known bugs the simulation must find, each as a textual change to one compiled file of
 * the build, the workload that must catch it and the seed budget it has.
 */

export interface PlantedBug {
  readonly name: string;
  /** What the bug breaks, in the words of the invariant. */
  readonly description: string;
  readonly changes: readonly {
    /** The compiled file, relative to dist/. */
    readonly file: string;
    readonly find: string;
    readonly replace: string;
  }[];
  readonly workload: "raft" | "cluster" | "nodes";
  readonly maxSeeds: number;
}

/** A bug that replaces `find` by `replace` in one compiled file. */
function bug(
  name: string,
  description: string,
  change: { readonly file: string; readonly find: string; readonly replace: string },
  check: { readonly workload: PlantedBug["workload"]; readonly maxSeeds: number },
): PlantedBug {
  return { name, description, changes: [change], ...check };
}

export const PLANTED_BUGS: readonly PlantedBug[] = [
  bug(
    "hw-from-leader-alone",
    "the leader advances the high watermark without waiting for the ISR",
    {
      file: "src/replication/high-watermark.js",
      find: "if (follower.logEndOffset >= candidate)\n            continue;",
      replace: "continue;",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "acks-all-before-hw",
    "an acks=all produce is answered before the high watermark reaches its records",
    {
      file: "src/replication/request-checks.js",
      find: 'if (at.highWatermark < at.requiredOffset)\n        return { kind: "waiting" };',
      replace: "",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "no-leader-epoch-bump",
    "a leader change keeps the leader epoch",
    {
      file: "src/metadata/partition-registration.js",
      find: "? (partition.leaderEpoch + 1)",
      replace: "? (partition.leaderEpoch)",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "fenced-broker-kept-in-isr",
    "a broker that is fenced or shut down stays in the ISR",
    {
      file: "src/controller/election/broker-events.js",
      find:
        "overrides: { leaving: brokerId },\n" +
        "        targetIsr: withoutReplicas(partition.isr, [brokerId]),",
      replace: "overrides: { leaving: brokerId },\n        targetIsr: partition.isr,",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "unclean-election-without-flag",
    "a partition elects a leader outside the ISR although unclean election is off",
    {
      file: "src/controller/election/topic-settings.js",
      find: "return defaults.uncleanLeaderElectionEnable;",
      replace: "return true;",
    },
    { workload: "cluster", maxSeeds: 20 },
  ),
  bug(
    "vote-for-stale-log",
    "a voter grants its vote to a candidate whose log is behind its own",
    {
      file: "src/raft/vote-handling.js",
      find: "return candidate.offset >= local.offset;",
      replace: "return true;",
    },
    { workload: "raft", maxSeeds: 50 },
  ),
  bug(
    "consumers-read-past-high-watermark",
    "a consumer's fetch returns records above the high watermark",
    {
      file: "src/replication/partition.driver.js",
      find:
        "const maxOffset = isFollower ? before.logEndOffset : " +
        "consumerBound(before, isCommitted);",
      replace: "const maxOffset = before.logEndOffset;",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "metadata-commit-without-majority",
    "the Raft leader commits metadata records that only it holds",
    {
      file: "src/raft/high-watermark.js",
      find: "const majorityIndex = Math.floor(input.voterEndOffsets.length / 2);",
      replace: "const majorityIndex = 0;",
    },
    { workload: "raft", maxSeeds: 50 },
  ),
  bug(
    "candidate-keeps-epoch",
    "a Raft candidate asks for votes without moving to a new epoch",
    {
      file: "src/raft/transitions.js",
      find: "epoch: core.epoch() + 1,",
      replace: "epoch: core.epoch(),",
    },
    { workload: "raft", maxSeeds: 50 },
  ),
  bug(
    "produce-accepted-by-follower",
    "a replica that is not the leader appends a producer's records",
    {
      file: "src/replication/request-checks.js",
      find:
        "return ErrorCode.KAFKA_STORAGE_ERROR;\n" +
        '    if (role.kind !== "leader")\n' +
        "        return ErrorCode.NOT_LEADER_OR_FOLLOWER;",
      replace: "return ErrorCode.KAFKA_STORAGE_ERROR;",
    },
    { workload: "nodes", maxSeeds: 40 },
  ),
  bug(
    "idempotent-duplicate-accepted",
    "a retried batch of an idempotent producer is written again",
    {
      file: "src/storage/producer-state/producer-state.js",
      find: 'return { kind: "duplicate", original };',
      replace: 'return { kind: "append" };',
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
  bug(
    "offset-commit-kept-first",
    "the group coordinator keeps a partition's first committed offset, not the latest",
    {
      file: "src/coordinator/offset-store.js",
      find: "partitions.set(key.partition, value);",
      replace: "if (!partitions.has(key.partition)) partitions.set(key.partition, value);",
    },
    { workload: "nodes", maxSeeds: 20 },
  ),
];
