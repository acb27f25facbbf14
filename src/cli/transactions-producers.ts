/**
 * The partition side of `sluice transactions`, as kafka-transactions.sh words it:
 * `describe-producers` (DescribeProducers to the partition's leader or to `--broker-id`),
 * `abort` (an ABORT marker written by WriteTxnMarkers to the leader, for a transaction that no
 * coordinator will end) and `find-hanging` (open transactions older than the longest
 * transaction timeout whose coordinator does not hold that partition in them).
 */
import { brokerId, ErrorCode, type BrokerId } from "../common/index.js";
import {
  describeProducers,
  describeTransactions,
  writeTxnMarkers,
  type DescribeProducersResponseProducerState,
  type MetadataResponse,
} from "../protocol/index.js";
import { EXIT } from "./command-options.js";
import { CommandFailure, kafkaFailure, type ClusterSession } from "./cluster-session.js";
import { printRows, type AdminIo, type AdminOptions } from "./admin-command.js";
import {
  integerOption,
  listedTransactions,
  requiredOption,
  transactionCoordinatorOf,
} from "./transactions-lookups.js";

/** kafka-transactions.sh's default `--max-transaction-timeout`, in minutes. */
const MAX_TRANSACTION_TIMEOUT_MINUTES = 15;
const MINUTE_MS = 60_000;

interface PartitionRef {
  readonly topic: string;
  readonly partition: number;
}

function partitionOf(metadata: MetadataResponse, ref: PartitionRef) {
  const topic = metadata.topics.find((each) => each.name === ref.topic);
  if (topic === undefined || topic.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(topic?.errorCode ?? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  }
  const found = topic.partitions.find((each) => each.partitionIndex === ref.partition);
  if (found === undefined) throw kafkaFailure(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  return found;
}

/** The producers `target` (the partition's leader when undefined) holds for each partition. */
async function producersOf(
  session: ClusterSession,
  partitions: readonly PartitionRef[],
  target: BrokerId,
): Promise<{ ref: PartitionRef; producers: DescribeProducersResponseProducerState[] }[]> {
  const topics = new Map<string, number[]>();
  for (const { topic, partition } of partitions)
    topics.set(topic, [...(topics.get(topic) ?? []), partition]);
  const body = {
    topics: [...topics].map(([name, partitionIndexes]) => ({ name, partitionIndexes })),
  };
  const response = await session.send(describeProducers, body, { target });
  return response.topics.flatMap((topic) =>
    topic.partitions.map((answer) => {
      if (answer.errorCode !== ErrorCode.NONE) {
        throw kafkaFailure(answer.errorCode, answer.errorMessage);
      }
      const ref = { topic: topic.name, partition: answer.partitionIndex };
      return { ref, producers: answer.activeProducers };
    }),
  );
}

function requiredPartition(options: AdminOptions): PartitionRef {
  const topic = requiredOption(options, "--topic");
  const partition = integerOption(options, "--partition");
  if (partition === undefined || partition < 0) {
    throw new CommandFailure("--partition is required (a partition number)");
  }
  return { topic, partition };
}

/** The broker to ask for `ref`: `--broker-id`, or the partition's leader. */
async function brokerFor(session: ClusterSession, options: AdminOptions, ref: PartitionRef) {
  const metadata = await session.metadata([ref.topic]);
  const given = integerOption(options, "--broker-id");
  if (given !== undefined) return brokerId(given);
  const leader = partitionOf(metadata, ref).leaderId;
  if (leader < 0) throw kafkaFailure(ErrorCode.LEADER_NOT_AVAILABLE);
  return brokerId(leader);
}

export async function describeProducersCommand(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const ref = requiredPartition(options);
  const target = await brokerFor(session, options, ref);
  const [found] = await producersOf(session, [ref], target);
  const rows = (found?.producers ?? []).map((producer) => ({
    ProducerId: producer.producerId,
    ProducerEpoch: producer.producerEpoch,
    LatestCoordinatorEpoch: producer.coordinatorEpoch,
    LastSequence: producer.lastSequence,
    LastTimestamp: producer.lastTimestamp,
    CurrentTransactionStartOffset:
      producer.currentTxnStartOffset >= 0 ? producer.currentTxnStartOffset : "None",
  }));
  const headers = [
    "ProducerId",
    "ProducerEpoch",
    "LatestCoordinatorEpoch",
    "LastSequence",
    "LastTimestamp",
    "CurrentTransactionStartOffset",
  ];
  printRows(io, options, headers, rows);
  return EXIT.ok;
}

/**
 * `abort`: the producer of the transaction starting at `--start-offset` (found with
 * DescribeProducers), or the one named by `--producer-id`, `--producer-epoch` and
 * `--coordinator-epoch`, gets an ABORT marker on the partition. A coordinator epoch of -1 (no
 * marker written yet) becomes 0, as Kafka's tool does.
 */
export async function abortTransaction(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const ref = requiredPartition(options);
  const leader = await brokerFor(session, options, ref);
  const startOffset = integerOption(options, "--start-offset");
  let spec: { producerId: number; producerEpoch: number; coordinatorEpoch: number };
  if (startOffset !== undefined) {
    const [found] = await producersOf(session, [ref], leader);
    const producer = found?.producers.find((each) => each.currentTxnStartOffset === startOffset);
    if (producer === undefined) {
      throw new CommandFailure(
        `Could not find any open transactions starting at offset ${startOffset} on partition ` +
          `${ref.topic}-${ref.partition}`,
      );
    }
    spec = producer;
  } else {
    const producerId = integerOption(options, "--producer-id");
    const producerEpoch = integerOption(options, "--producer-epoch");
    const coordinatorEpoch = integerOption(options, "--coordinator-epoch");
    if (producerId === undefined || producerEpoch === undefined || coordinatorEpoch === undefined) {
      throw new CommandFailure(
        "The transaction to abort must be identified either with --start-offset or with " +
          "--producer-id, --producer-epoch, and --coordinator-epoch",
      );
    }
    spec = { producerId, producerEpoch, coordinatorEpoch };
  }
  const marker = {
    producerId: spec.producerId,
    producerEpoch: spec.producerEpoch,
    transactionResult: false,
    topics: [{ name: ref.topic, partitionIndexes: [ref.partition] }],
    coordinatorEpoch: Math.max(0, spec.coordinatorEpoch),
  };
  const response = await session.send(writeTxnMarkers, { markers: [marker] }, { target: leader });
  const errorCode =
    response.markers[0]?.topics[0]?.partitions[0]?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR;
  if (errorCode !== ErrorCode.NONE) {
    const failure = kafkaFailure(errorCode);
    throw new CommandFailure(`Failed to abort transaction: ${failure.message}`, errorCode);
  }
  io.write(
    `Aborted the transaction of producer ${spec.producerId} (epoch ${spec.producerEpoch}) on ` +
      `${ref.topic}-${ref.partition}.`,
  );
  return EXIT.ok;
}

interface OpenTransaction {
  readonly ref: PartitionRef;
  readonly producer: DescribeProducersResponseProducerState;
}

/** The partitions `find-hanging` searches: those of `--topic`, or every one on `--broker-id`. */
async function searchedPartitions(session: ClusterSession, options: AdminOptions) {
  const topic = options.values.get("--topic");
  const partition = integerOption(options, "--partition");
  const broker = integerOption(options, "--broker-id");
  if (topic === undefined && broker === undefined) {
    throw new CommandFailure(
      "The `find-hanging` command requires either --topic or --broker-id to limit the scope " +
        "of the search",
    );
  }
  if (partition !== undefined && topic === undefined) {
    throw new CommandFailure("The --partition argument requires --topic to be provided");
  }
  const metadata = await session.metadata(topic === undefined ? null : [topic]);
  const found: { ref: PartitionRef; leader: number }[] = [];
  for (const each of metadata.topics) {
    if (topic !== undefined && each.errorCode !== ErrorCode.NONE)
      throw kafkaFailure(each.errorCode);
    for (const entry of each.partitions) {
      if (partition !== undefined && entry.partitionIndex !== partition) continue;
      if (broker !== undefined && !entry.replicaNodes.includes(broker)) continue;
      const ref = { topic: each.name ?? "", partition: entry.partitionIndex };
      found.push({ ref, leader: broker ?? entry.leaderId });
    }
  }
  return found;
}

async function openTransactions(
  session: ClusterSession,
  options: AdminOptions,
  nowMs: number,
): Promise<OpenTransaction[]> {
  const minutes =
    integerOption(options, "--max-transaction-timeout") ?? MAX_TRANSACTION_TIMEOUT_MINUTES;
  const maxTimeoutMs = minutes * MINUTE_MS;
  const byBroker = new Map<number, PartitionRef[]>();
  for (const { ref, leader } of await searchedPartitions(session, options)) {
    if (leader < 0) throw kafkaFailure(ErrorCode.LEADER_NOT_AVAILABLE);
    byBroker.set(leader, [...(byBroker.get(leader) ?? []), ref]);
  }
  const open: OpenTransaction[] = [];
  for (const [broker, refs] of byBroker) {
    for (const { ref, producers } of await producersOf(session, refs, brokerId(broker))) {
      for (const producer of producers) {
        const isOld = nowMs - producer.lastTimestamp > maxTimeoutMs;
        if (producer.currentTxnStartOffset >= 0 && isOld) open.push({ ref, producer });
      }
    }
  }
  return open;
}

/**
 * Whether the coordinator of `transactionalId` still holds `ref` in its transaction (so it will
 * write the marker), or undefined when it does not know the id.
 */
async function coordinatorPartitions(session: ClusterSession, transactionalId: string) {
  const coordinator = await transactionCoordinatorOf(session, transactionalId);
  const body = { transactionalIds: [transactionalId] };
  const response = await session.send(describeTransactions, body, { target: coordinator });
  const state = response.transactionStates[0];
  if (state?.errorCode === ErrorCode.TRANSACTIONAL_ID_NOT_FOUND) return undefined;
  if (state === undefined || state.errorCode !== ErrorCode.NONE) {
    throw kafkaFailure(state?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR);
  }
  return new Set(
    state.topics.flatMap((topic) => topic.partitions.map((p) => `${topic.topic}-${p}`)),
  );
}

export async function findHanging(
  session: ClusterSession,
  options: AdminOptions,
  io: AdminIo,
): Promise<number> {
  const nowMs = io.clock.nowMs();
  const open = await openTransactions(session, options, nowMs);
  const producerIds = [...new Set(open.map(({ producer }) => producer.producerId))];
  const listed =
    producerIds.length === 0
      ? []
      : await listedTransactions(session, { states: [], producerIds, durationFilter: -1 });
  const hanging: OpenTransaction[] = [];
  for (const transaction of open) {
    const id = listed.find((each) => each.producerId === transaction.producer.producerId);
    const held =
      id === undefined ? undefined : await coordinatorPartitions(session, id.transactionalId);
    const { topic, partition } = transaction.ref;
    if (held === undefined || !held.has(`${topic}-${partition}`)) hanging.push(transaction);
  }
  const rows = hanging.map(({ ref, producer }) => ({
    Topic: ref.topic,
    Partition: ref.partition,
    ProducerId: producer.producerId,
    ProducerEpoch: producer.producerEpoch,
    CoordinatorEpoch: producer.coordinatorEpoch,
    StartOffset: producer.currentTxnStartOffset,
    LastTimestamp: producer.lastTimestamp,
    "Duration(min)": Math.floor((nowMs - producer.lastTimestamp) / MINUTE_MS),
  }));
  const headers = [
    "Topic",
    "Partition",
    "ProducerId",
    "ProducerEpoch",
    "CoordinatorEpoch",
    "StartOffset",
    "LastTimestamp",
    "Duration(min)",
  ];
  printRows(io, options, headers, rows);
  return EXIT.ok;
}
