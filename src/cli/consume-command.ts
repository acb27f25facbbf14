/**
 * `sluice consume TOPIC`: prints a topic's records to standard output, one a line, as Kafka's
 * kafka-console-consumer.sh does: from the end (or --from-beginning, or --offset of one
 * --partition), with the key, partition, offset and timestamp when the `print.*` properties ask,
 * until --max-messages records or --timeout-ms without a record. It ends by printing
 * "Processed a total of N messages" to standard error, as Kafka's tool does. Without --partition
 * it reads every partition of the topic.
 */
import type { BrokerId } from "../common/index.js";
import { EXIT, parseCommandOptions } from "./command-options.js";
import {
  DEFAULT_BOOTSTRAP_SERVER,
  runAgainstCluster,
  type ClusterSession,
  type ClusterCommandIo,
} from "./cluster-session.js";
import { EARLIEST, fetchOnce, LATEST, listPartitionOffsets } from "./consume-fetch.js";
import { consumerSettings, formatRecord, type ConsumerSettings } from "./consume-settings.js";
import { committedOffsets, commitOffsets, type GroupOffsets } from "./consume-group.js";
import { leaderOf, partitionLeaders, type Leaders } from "./record-routing.js";

export const CONSUME_USAGE =
  "usage: sluice consume TOPIC [--bootstrap-server HOST:PORT] [--from-beginning] " +
  "[--partition N [--offset N|earliest|latest]] [--max-messages N] [--timeout-ms N] " +
  "[--group ID] [--property print.key=true] [--property key.separator=S] " +
  "[--property print.partition|print.offset|print.timestamp|print.value=true|false] " +
  "[--command-config FILE]";

/** The longest one Fetch waits on the broker, so --timeout-ms is honoured to about this. */
const FETCH_WAIT_MS_MAX = 500;

export interface ConsumeIo extends ClusterCommandIo {
  /** True once the user asked the command to stop (SIGINT, SIGTERM). */
  readonly isStopped: () => boolean;
}

/** Runs `sluice consume` with the arguments after `consume`. */
export async function consumeCommand(args: readonly string[], io: ConsumeIo): Promise<number> {
  if (args.includes("--help")) {
    io.write(CONSUME_USAGE);
    io.write(`--bootstrap-server defaults to ${DEFAULT_BOOTSTRAP_SERVER}.`);
    io.write("--group reads the group's committed offsets and commits the positions at the end.");
    return EXIT.ok;
  }
  const parsed = parseCommandOptions(args, {
    booleans: ["--from-beginning"],
    values: [
      "--bootstrap-server",
      "--topic",
      "--partition",
      "--offset",
      "--max-messages",
      "--timeout-ms",
      "--group",
      "--request-timeout-ms",
      "--command-config",
    ],
    repeatable: ["--property"],
  });
  const settings = parsed.kind === "ok" ? consumerSettings(parsed) : parsed;
  if (settings.kind === "usage") {
    io.error(settings.message);
    io.error(CONSUME_USAGE);
    return EXIT.usage;
  }
  let count = 0;
  const code = await runAgainstCluster(
    settings.bootstrap,
    io,
    {
      prefix: "",
      requestTimeoutMs: settings.requestTimeoutMs,
      commandConfig: settings.commandConfig,
    },
    async (session) => {
      const leaders = await session.retrying(() => partitionLeaders(session, settings.topic));
      const partitions =
        settings.partition === undefined
          ? [...leaders.keys()].sort((a, b) => a - b)
          : [settings.partition];
      for (const partition of partitions) leaderOf(leaders, settings.topic, partition);
      const positions = await session.retrying(() =>
        startPositions(session, settings, leaders, partitions),
      );
      count = await consumeLoop(session, settings, leaders, positions, io);
      if (settings.group !== undefined) {
        const group = settings.group;
        await session.retrying(() => commitOffsets(session, group, settings.topic, positions));
      }
      return EXIT.ok;
    },
  );
  io.error(`Processed a total of ${count} messages`);
  return code;
}

/** Where each partition starts: --offset, else the group's committed offset, else the reset. */
async function startPositions(
  session: ClusterSession,
  settings: ConsumerSettings,
  leaders: Leaders,
  partitions: readonly number[],
): Promise<Map<number, number>> {
  const positions = new Map<number, number>();
  const start = settings.offset;
  if (typeof start === "number") {
    for (const partition of partitions) positions.set(partition, start);
    return positions;
  }
  const committed: GroupOffsets =
    settings.group === undefined
      ? new Map()
      : await committedOffsets(session, settings.group, settings.topic, partitions);
  const reset = start === "earliest" || settings.fromBeginning ? EARLIEST : LATEST;
  const toList = new Map<BrokerId, number[]>();
  for (const partition of partitions) {
    const offset = committed.get(partition);
    if (offset !== undefined) {
      positions.set(partition, offset);
      continue;
    }
    const leader = leaderOf(leaders, settings.topic, partition);
    toList.set(leader, [...(toList.get(leader) ?? []), partition]);
  }
  for (const [leader, list] of toList) {
    const offsets = await listPartitionOffsets(session, leader, settings.topic, list, reset);
    for (const [partition, offset] of offsets) positions.set(partition, offset);
  }
  return positions;
}

/** Fetches and prints until the count or the quiet time is reached; returns the count. */
async function consumeLoop(
  session: ClusterSession,
  settings: ConsumerSettings,
  leaders: Leaders,
  positions: Map<number, number>,
  io: ConsumeIo,
): Promise<number> {
  const byLeader = new Map<BrokerId, Map<number, number>>();
  for (const [partition, offset] of positions) {
    const leader = leaderOf(leaders, settings.topic, partition);
    const own = byLeader.get(leader) ?? new Map<number, number>();
    own.set(partition, offset);
    byLeader.set(leader, own);
  }
  let count = 0;
  let lastRecordMs = io.clock.monotonicMs();
  for (;;) {
    for (const [leader, own] of byLeader) {
      const quietMs = io.clock.monotonicMs() - lastRecordMs;
      const waitMs = Math.max(
        0,
        Math.min(FETCH_WAIT_MS_MAX, (settings.timeoutMs ?? Infinity) - quietMs),
      );
      const consumed = await fetchOnce(session, leader, settings.topic, own, waitMs);
      for (const entry of consumed) {
        const { partition, record } = entry;
        if (settings.maxMessages !== undefined && count >= settings.maxMessages) break;
        io.write(formatRecord(settings, entry));
        count++;
        // The group commits what was printed, not what was fetched past it.
        positions.set(partition, record.offset + 1);
        lastRecordMs = io.clock.monotonicMs();
      }
      if (settings.maxMessages !== undefined && count >= settings.maxMessages) return count;
    }
    const quietMs = io.clock.monotonicMs() - lastRecordMs;
    if (settings.timeoutMs !== undefined && quietMs >= settings.timeoutMs) return count;
    // A stop ends the loop between fetches, so the group commits what was printed.
    if (io.isStopped()) return count;
  }
}
