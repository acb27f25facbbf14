/**
 * `sluice produce TOPIC`: sends the lines of standard input as records, one a line, as Kafka's
 * kafka-console-producer.sh does. With `--property parse.key=true` (or `--key-separator S`) each
 * line is a key and a value split at the first separator (a tab by default). Records go to
 * `--partition`, else to the key's partition by Kafka's default partitioner, else to one
 * partition per batch, as Kafka's sticky partitioner does. A refused record is reported as the
 * Java producer's logging callback reports it, and the command exits 1.
 */
import { ErrorCode, type BrokerId } from "../common/index.js";
import type { ClientPorts } from "../client/index.js";
import {
  encodeBatch,
  NO_PRODUCER_ID,
  NO_SEQUENCE,
  produce,
  type CompressionType,
  type NewRecord,
} from "../protocol/index.js";
import { EXIT, parseCommandOptions, type CommandOutput } from "./command-options.js";
import {
  CommandFailure,
  DEFAULT_BOOTSTRAP_SERVER,
  isWorthRetrying,
  kafkaFailure,
  runAgainstCluster,
  type ClusterSession,
  type ClusterCommandIo,
} from "./cluster-session.js";
import {
  leaderOf,
  linesOf,
  partitionForKey,
  partitionLeaders,
  type Leaders,
} from "./record-routing.js";
import { producerSettings, type ProducerSettings } from "./produce-settings.js";

export const PRODUCE_USAGE =
  "usage: sluice produce TOPIC [--bootstrap-server HOST:PORT] [--acks all|-1|1] " +
  "[--partition N] [--compression none|gzip|snappy|lz4|zstd] " +
  "[--property parse.key=true] [--property key.separator=S] [--key-separator S] " +
  "[--batch-size N] [--request-timeout-ms N] [--command-config FILE]";

export interface ProduceIo extends ClusterCommandIo {
  readonly input: AsyncIterable<Uint8Array | string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs `sluice produce` with the arguments after `produce`. */
export async function produceCommand(args: readonly string[], io: ProduceIo): Promise<number> {
  if (args.includes("--help")) {
    io.write(PRODUCE_USAGE);
    io.write(`--bootstrap-server defaults to ${DEFAULT_BOOTSTRAP_SERVER}, --acks to all.`);
    return EXIT.ok;
  }
  const parsed = parseCommandOptions(args, {
    booleans: [],
    values: [
      "--bootstrap-server",
      "--topic",
      "--acks",
      "--partition",
      "--compression",
      "--compression-codec",
      "--key-separator",
      "--batch-size",
      "--request-timeout-ms",
      "--command-config",
    ],
    repeatable: ["--property"],
  });
  const settings = parsed.kind === "ok" ? producerSettings(parsed) : parsed;
  if (settings.kind === "usage") {
    io.error(settings.message);
    io.error(PRODUCE_USAGE);
    return EXIT.usage;
  }
  const { requestTimeoutMs } = settings;
  return runAgainstCluster(
    settings.bootstrap,
    io,
    { prefix: "", requestTimeoutMs, commandConfig: settings.commandConfig },
    async (session) => {
      const leaders = await session.retrying(() => partitionLeaders(session, settings.topic));
      const producer = new LineProducer(session, settings, leaders, io);
      for await (const line of linesOf(io.input)) await producer.add(line);
      await producer.flush();
      return producer.hasFailed ? EXIT.failed : EXIT.ok;
    },
  );
}

interface PendingRecord {
  readonly partition: number;
  readonly record: NewRecord;
}

/** Collects records into batches of `batchSize` and sends each batch to the leaders. */
class LineProducer {
  private pending: PendingRecord[] = [];
  private lineNumber = 0;
  private stickyPartition: number;
  hasFailed = false;

  constructor(
    private readonly session: ClusterSession,
    private readonly settings: ProducerSettings,
    private leaders: Leaders,
    private readonly io: CommandOutput & ClientPorts,
  ) {
    this.stickyPartition = this.randomPartition();
  }

  async add(line: string): Promise<void> {
    this.lineNumber++;
    const { keySeparator } = this.settings;
    let key: Uint8Array | null = null;
    let value = line;
    if (keySeparator !== undefined) {
      const at = line.indexOf(keySeparator);
      if (at < 0) {
        throw new CommandFailure(
          `No key separator found on line number ${this.lineNumber}: '${line}'`,
        );
      }
      key = encoder.encode(line.slice(0, at));
      value = line.slice(at + keySeparator.length);
    }
    const partition =
      this.settings.partition ??
      (key === null ? this.stickyPartition : partitionForKey(key, this.leaders.size));
    const record = { timestamp: this.io.clock.nowMs(), key, value: encoder.encode(value) };
    this.pending.push({ partition, record });
    if (this.pending.length >= this.settings.batchSize) await this.flush();
  }

  /**
   * Sends what is pending, one Produce request per leader. Partitions refused with a retriable
   * error (a leader that moved) are sent again to the leaders Metadata names then, as the Java
   * producer retries; the others are done, written or reported.
   */
  async flush(): Promise<void> {
    const remaining = new Map<number, NewRecord[]>();
    for (const { partition, record } of this.pending) {
      const records = remaining.get(partition) ?? [];
      records.push(record);
      remaining.set(partition, records);
    }
    this.pending = [];
    this.stickyPartition = this.randomPartition();
    let isFirst = true;
    await this.session.retrying(async () => {
      if (!isFirst) this.leaders = await partitionLeaders(this.session, this.settings.topic);
      isFirst = false;
      const byLeader = new Map<BrokerId, number[]>();
      for (const partition of remaining.keys()) {
        const leader = leaderOf(this.leaders, this.settings.topic, partition);
        byLeader.set(leader, [...(byLeader.get(leader) ?? []), partition]);
      }
      let retriable: number | undefined;
      for (const [leader, partitions] of byLeader) {
        const sent = partitions.map((index) => ({ index, records: remaining.get(index) ?? [] }));
        for (const { index, errorCode } of await this.send(leader, sent)) {
          if (isWorthRetrying(errorCode)) retriable = errorCode;
          else remaining.delete(index);
        }
      }
      if (retriable !== undefined) throw kafkaFailure(retriable);
    });
  }

  /** Sends `partitions` to `leader`, reports refused records, and returns every outcome. */
  private async send(
    leader: BrokerId,
    partitions: readonly { readonly index: number; readonly records: readonly NewRecord[] }[],
  ): Promise<{ readonly index: number; readonly errorCode: number }[]> {
    const { topic, acks, compression } = this.settings;
    const partitionData = partitions.map(({ index, records }) => ({
      index,
      records: batchOf(records, compression),
    }));
    const body = {
      transactionalId: null,
      acks,
      timeoutMs: this.settings.requestTimeoutMs,
      topicData: [{ name: topic, partitionData }],
    };
    const response = await this.session.send(produce, body, { maxVersion: 11, target: leader });
    const results = response.responses.flatMap((entry) => entry.partitionResponses);
    for (const result of results) {
      if (result.errorCode === ErrorCode.NONE || isWorthRetrying(result.errorCode)) continue;
      this.hasFailed = true;
      const failure = kafkaFailure(result.errorCode, result.errorMessage).message;
      const records = partitions.find((entry) => entry.index === result.index)?.records ?? [];
      for (const record of records) {
        const key = record.key === null ? "null" : decoder.decode(record.key);
        this.io.error(
          `Error when sending message to topic ${topic} with key: ${key}, ` +
            `value: ${record.value?.length ?? 0} bytes with error: ${failure}`,
        );
      }
    }
    return results;
  }

  private randomPartition(): number {
    return this.io.random.nextInt(Math.max(1, this.leaders.size));
  }
}

function batchOf(records: readonly NewRecord[], compression: CompressionType): Uint8Array {
  return encodeBatch({
    baseOffset: 0,
    partitionLeaderEpoch: -1,
    compression,
    timestampType: "createTime",
    isTransactional: false,
    isControl: false,
    producerId: NO_PRODUCER_ID,
    producerEpoch: -1,
    baseSequence: NO_SEQUENCE,
    records,
  });
}
