/**
 * `sluice transactions list | describe | describe-producers | abort | find-hanging`: transaction
 * administration with the subcommands, options and columns of Kafka's kafka-transactions.sh.
 * `list` asks every broker (each coordinates its own transactional ids) with ListTransactions;
 * `describe` asks the transactional id's coordinator (FindCoordinator key type 1) with
 * DescribeTransactions; `describe-producers`, `abort` and `find-hanging` are in
 * transactions-producers.ts.
 */
import { ErrorCode } from "../common/index.js";
import { describeTransactions } from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import {
  integerOption,
  listOption,
  listedTransactions,
  requiredOption,
  transactionCoordinatorOf,
} from "./transactions-lookups.js";
import { printRows, type AdminCommand, type AdminIo, type AdminOptions } from "./admin-command.js";
import {
  abortTransaction,
  describeProducersCommand,
  findHanging,
} from "./transactions-producers.js";

const TRANSACTIONS_HELP = [
  "  list                TransactionalId, Coordinator, ProducerId, TransactionState of every",
  "                      transactional id; --duration-filter MS keeps those running longer,",
  "                      --state S,... and --producer-id ID,... keep those states or ids",
  "  describe            --transactional-id ID: its coordinator, producer id and epoch, state,",
  "                      timeout, start time, duration and the partitions of its transaction",
  "  describe-producers  --topic T --partition P [--broker-id B]: the producers the leader (or",
  "                      broker B) holds state for, with any open transaction's start offset",
  "  abort               --topic T --partition P and --start-offset N (or --producer-id,",
  "                      --producer-epoch and --coordinator-epoch): writes an ABORT marker for",
  "                      a hanging transaction on that partition",
  "  find-hanging        --broker-id B | --topic T [--partition P] [--max-transaction-timeout",
  "                      MIN, 15]: open transactions older than that which no coordinator",
  "                      will complete",
];

export const TRANSACTIONS_COMMAND: AdminCommand = {
  name: "transactions",
  usage:
    "usage: sluice transactions list|describe|describe-producers|abort|find-hanging " +
    "[--bootstrap-server HOST:PORT] [options]",
  help: TRANSACTIONS_HELP,
  subcommands: ["list", "describe", "describe-producers", "abort", "find-hanging"],
  options: {
    booleans: [],
    values: [
      "--duration-filter",
      "--state",
      "--producer-id",
      "--transactional-id",
      "--topic",
      "--partition",
      "--broker-id",
      "--start-offset",
      "--producer-epoch",
      "--coordinator-epoch",
      "--max-transaction-timeout",
    ],
  },
  errorPrefix: "",
  // An abort writes a marker: it is not repeated after a refusal. The others only read.
  isRetried: (subcommand) => subcommand !== "abort",
  run: runTransactions,
};

function runTransactions(
  subcommand: string,
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  switch (subcommand) {
    case "list":
      return list(session, options, io);
    case "describe":
      return describe(session, options, io);
    case "describe-producers":
      return describeProducersCommand(session, options, io);
    case "abort":
      return abortTransaction(session, options, io);
    default:
      return findHanging(session, options, io);
  }
}

async function list(session: ClusterSession, options: AdminOptions, io: CommandOutput) {
  const producerIds = listOption(options, "--producer-id").map((text) => {
    if (!/^\d+$/.test(text)) throw new CommandFailure(`--producer-id: "${text}" is not an id`);
    return Number(text);
  });
  const listed = await listedTransactions(session, {
    states: listOption(options, "--state"),
    producerIds,
    durationFilter: integerOption(options, "--duration-filter") ?? -1,
  });
  const rows = listed.map((state) => ({
    TransactionalId: state.transactionalId,
    Coordinator: state.coordinator,
    ProducerId: state.producerId,
    TransactionState: state.transactionState,
  }));
  const headers = ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"];
  printRows(io, options, headers, rows);
  return EXIT.ok;
}

async function describe(session: ClusterSession, options: AdminOptions, io: AdminIo) {
  const transactionalId = requiredOption(options, "--transactional-id");
  const coordinator = await transactionCoordinatorOf(session, transactionalId);
  const body = { transactionalIds: [transactionalId] };
  const response = await session.send(describeTransactions, body, { target: coordinator });
  const state = response.transactionStates[0];
  const errorCode = state?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR;
  if (state === undefined || errorCode !== ErrorCode.NONE) {
    const failure = kafkaFailure(errorCode);
    const about = `Failed to describe transaction state of transactional-id \`${transactionalId}\``;
    throw new CommandFailure(`${about}: ${failure.message}`, errorCode);
  }
  const startMs = state.transactionStartTimeMs;
  const hasStarted = startMs >= 0;
  const row = {
    CoordinatorId: coordinator,
    TransactionalId: transactionalId,
    ProducerId: state.producerId,
    ProducerEpoch: state.producerEpoch,
    TransactionState: state.transactionState,
    TransactionTimeoutMs: state.transactionTimeoutMs,
    CurrentTransactionStartTimeMs: hasStarted ? startMs : "None",
    TransactionDurationMs: hasStarted ? io.clock.nowMs() - startMs : "None",
    TopicPartitions: state.topics
      .flatMap((topic) => topic.partitions.map((partition) => `${topic.topic}-${partition}`))
      .join(","),
  };
  printRows(io, options, Object.keys(row), [row]);
  return EXIT.ok;
}
