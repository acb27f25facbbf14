/**
 * `sluice reassign generate | execute | verify | cancel | list`: moving partition replicas
 * between brokers as Kafka's kafka-reassign-partitions.sh does, with its JSON files.
 * `generate` proposes a reassignment of the topics in `--topics-to-move-json-file` over
 * `--broker-list`; `execute` starts the one in `--reassignment-json-file`
 * (AlterPartitionReassignments; with `--wait` it shows progress until it is done); `verify`
 * compares it with the replicas now; `cancel` stops it; `list` shows the reassignments under way
 * (ListPartitionReassignments).
 */
import { ErrorCode, errorName } from "../common/index.js";
import { alterPartitionReassignments } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { isJson, type AdminCommand, type AdminIo, type AdminOptions } from "./admin-command.js";
import { readJsonFile } from "./json-file.js";
import {
  parseBrokerList,
  parseReassignmentFile,
  parseTopicsFile,
  proposeReassignment,
  reassignmentJson,
  type PartitionReplicas,
} from "./reassign-plan.js";
import { waitForReassignments } from "./reassign-wait.js";
import {
  currentReplicas,
  listReassignments,
  ongoingReassignments,
  REASSIGNMENT_TIMEOUT_MS,
  verify,
} from "./reassign-status.js";

export const REASSIGN_COMMAND: AdminCommand = {
  name: "reassign",
  usage:
    "usage: sluice reassign generate|execute|verify|cancel|list " +
    "[--reassignment-json-file FILE] [options]",
  help: [
    "  generate  --topics-to-move-json-file FILE --broker-list B,B,...: prints the current",
    "            assignment and a proposal (save it to a file for execute)",
    "  execute   --reassignment-json-file FILE [--additional] [--wait [--wait-timeout-ms N]]:",
    "            prints the current assignment (keep it to roll back) and starts the moves;",
    "            --wait shows progress until they finish (600000 ms at most by default)",
    "  verify    --reassignment-json-file FILE: per partition completed, in progress, or not",
    "            running with other replicas; exits 1 unless every one completed",
    "  cancel    --reassignment-json-file FILE: stops the moves still under way",
    "  list      the reassignments under way: replicas, adding, removing",
  ],
  subcommands: ["generate", "execute", "verify", "cancel", "list"],
  options: {
    booleans: ["--additional", "--wait"],
    values: [
      "--topics-to-move-json-file",
      "--broker-list",
      "--reassignment-json-file",
      "--wait-timeout-ms",
    ],
  },
  errorPrefix: "Error: ",
  isRetried: (subcommand) => subcommand !== "execute",
  run: runReassign,
};

async function runReassign(
  subcommand: string,
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  if (subcommand === "list") return listReassignments(session, options, io);
  if (subcommand === "generate") return generate(session, options, io);
  const path = options.values.get("--reassignment-json-file");
  if (path === undefined) throw new CommandFailure("--reassignment-json-file FILE is required");
  const plan = parseReassignmentFile(await readJsonFile(io.fileSystem, path), path);
  if (subcommand === "execute") return execute(session, plan, options, io);
  if (subcommand === "verify") return verify(session, plan, options, io);
  return cancel(session, plan, io);
}

async function generate(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const path = options.values.get("--topics-to-move-json-file");
  if (path === undefined) throw new CommandFailure("--topics-to-move-json-file FILE is required");
  const topics = parseTopicsFile(await readJsonFile(io.fileSystem, path), path);
  const brokers = parseBrokerList(options.values.get("--broker-list"));
  const current = await currentReplicas(session, topics);
  const proposed = proposeReassignment(current, brokers);
  if (options.booleans.has("--json")) {
    const both = { current: reassignmentJson(current), proposed: reassignmentJson(proposed) };
    io.write(JSON.stringify(both, null, 2));
    return EXIT.ok;
  }
  io.write("Current partition replica assignment");
  io.write(JSON.stringify(reassignmentJson(current)));
  io.write("");
  io.write("Proposed partition reassignment configuration");
  io.write(JSON.stringify(reassignmentJson(proposed)));
  return EXIT.ok;
}

async function execute(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const ongoing = await ongoingReassignments(session);
  if (ongoing.size > 0 && !options.booleans.has("--additional")) {
    throw new CommandFailure(
      "Cannot execute because there is an existing partition reassignment (sluice reassign list " +
        "shows it). Use --additional to start this one as well, or cancel the other first.",
    );
  }
  const current = await currentReplicas(
    session,
    plan.map((entry) => entry.topic),
  );
  const inPlan = new Set(plan.map((entry) => `${entry.topic}-${entry.partition}`));
  for (const name of inPlan) {
    if (!current.some((entry) => `${entry.topic}-${entry.partition}` === name)) {
      throw kafkaFailure(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `Partition ${name} does not exist.`);
    }
  }
  const rollback = reassignmentJson(
    current.filter((entry) => inPlan.has(`${entry.topic}-${entry.partition}`)),
  );
  if (!isJson(options)) {
    io.write("Current partition replica assignment");
    io.write("");
    io.write(JSON.stringify(rollback));
    io.write("");
    io.write("Save this to use as the --reassignment-json-file option during rollback");
  }
  const failures = await alterReassignments(session, plan, (entry) => [...entry.replicas]);
  const started = plan.map((entry) => `${entry.topic}-${entry.partition}`);
  if (failures.length > 0) return reportFailures(failures, "start", io);
  if (!isJson(options)) {
    io.write(`Successfully started partition reassignments for ${started.join(",")}`);
  }
  const waited = options.booleans.has("--wait")
    ? await waitForReassignments(session, plan, options, io)
    : undefined;
  // One JSON document: the rollback plan, what started, and how it ended when waited for.
  if (isJson(options)) {
    io.write(JSON.stringify({ current: rollback, started, outcome: waited?.outcome }, null, 2));
  }
  return waited?.code ?? EXIT.ok;
}

/** Sends AlterPartitionReassignments; returns the partitions refused, with their errors. */
async function alterReassignments(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  replicasOf: (entry: PartitionReplicas) => number[] | null,
): Promise<{ name: string; problem: string }[]> {
  const byTopic = new Map<string, { partitionIndex: number; replicas: number[] | null }[]>();
  for (const entry of plan) {
    const partitions = byTopic.get(entry.topic) ?? [];
    partitions.push({ partitionIndex: entry.partition, replicas: replicasOf(entry) });
    byTopic.set(entry.topic, partitions);
  }
  const body = {
    timeoutMs: REASSIGNMENT_TIMEOUT_MS,
    topics: [...byTopic].map(([name, partitions]) => ({ name, partitions })),
  };
  const response = await session.send(alterPartitionReassignments, body, { maxVersion: 0 });
  if (response.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(response.errorCode, response.errorMessage);
  }
  return response.responses.flatMap((topic) =>
    topic.partitions
      .filter((partition) => partition.errorCode !== ErrorCode.NONE)
      .map((partition) => ({
        name: `${topic.name}-${partition.partitionIndex}`,
        errorCode: partition.errorCode,
        problem: `${errorName(partition.errorCode)}: ${partition.errorMessage ?? ""}`.trimEnd(),
      })),
  );
}

function reportFailures(
  failures: readonly { name: string; problem: string }[],
  verb: string,
  io: CommandOutput,
): number {
  io.error(`Error: ${failures.length} partition reassignment(s) could not ${verb}:`);
  for (const failure of failures) io.error(`  ${failure.name}: ${failure.problem}`);
  return EXIT.failed;
}

async function cancel(
  session: ClusterSession,
  plan: readonly PartitionReplicas[],
  io: AdminIo,
): Promise<number> {
  const ongoing = await ongoingReassignments(session);
  const active = plan.filter((entry) => ongoing.has(`${entry.topic}-${entry.partition}`));
  if (active.length === 0) {
    io.write("None of the specified partition reassignments are active.");
    return EXIT.ok;
  }
  const failures = await alterReassignments(session, active, () => null);
  const refused = new Set(failures.map((failure) => failure.name));
  const cancelled = active
    .map((entry) => `${entry.topic}-${entry.partition}`)
    .filter((name) => !refused.has(name));
  if (cancelled.length > 0)
    io.write(`Successfully cancelled partition reassignments for: ${cancelled.join(",")}`);
  return failures.length > 0 ? reportFailures(failures, "be cancelled", io) : EXIT.ok;
}
