/**
 * An idempotent producer inside the simulation, as Kafka's producer with enable.idempotence: a
 * producer id from InitProducerId, a sequence per partition, one batch in flight, and the same
 * batch sent again (same sequence) after every failure until it is acknowledged. Each value is
 * invoked once and ends ok once; a retry of a batch the log holds must be answered with its
 * first offset, never written twice, which the checker's P2 (each value at most once) judges.
 * A refusal of the producer's id, epoch or sequence ends the value as open (info) and starts
 * over with a new producer id, as KIP-360's recovery does.
 */
import { ErrorCode } from "../../src/common/index.js";
import { partitionKey } from "./history.js";
import { leaderOf, type Worker, type WorkerContext } from "./workers.js";
import { initProducerId, produceOne } from "./wire.js";

/** Refusals after which the producer needs a new id (KIP-360), as the Java producer does. */
const PRODUCER_REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
  ErrorCode.UNKNOWN_PRODUCER_ID,
  ErrorCode.INVALID_PRODUCER_EPOCH,
  ErrorCode.PRODUCER_FENCED,
]);

interface ProducerIdentity {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly sequences: number[];
}

/** An idempotent acks=all producer writing `${name}-${n}` values until stopped. */
export function startIdempotentProducer(context: WorkerContext): Worker {
  const { client, history } = context;
  let isStopped = false;
  let identity: ProducerIdentity | undefined;
  const at = () => client.machine.clock.nowMs();

  /** Sends `value` to `partition` until it is acknowledged, refused, or the worker stops. */
  const send = async (partition: number, value: string): Promise<void> => {
    const key = partitionKey(context.topic, partition);
    history.record({
      kind: "invoke",
      client: client.name,
      partition: key,
      value,
      acks: -1,
      atMs: at(),
    });
    for (;;) {
      if (isStopped || identity === undefined) break;
      const leader = await leaderOf(context, partition);
      if (leader === undefined) {
        await client.pause(50);
        continue;
      }
      const { producerId, producerEpoch, sequences } = identity;
      const stamp = { producerId, producerEpoch, baseSequence: sequences[partition] ?? 0 };
      const target = { topic: context.topic, partition, acks: -1 };
      const outcome = await produceOne(client, leader, target, value, stamp);
      if (outcome.kind === "ok") {
        sequences[partition] = stamp.baseSequence + 1;
        history.acknowledged(client.name, value, outcome.offset, at());
        return;
      }
      if (outcome.kind === "refused" && PRODUCER_REFUSALS.has(outcome.errorCode)) {
        identity = undefined;
        break;
      }
      await client.pause(50);
    }
    history.record({
      kind: "info",
      client: client.name,
      value,
      reason: "not acknowledged",
      atMs: at(),
    });
  };

  const done = (async () => {
    for (let sequence = 0; !isStopped;) {
      if (identity === undefined) {
        const id = await initProducerId(client, context.random.pick(context.nodeIds));
        if (id === undefined) {
          await client.pause(100);
          continue;
        }
        const sequences = new Array<number>(context.partitionCount).fill(0);
        identity = { ...id, sequences };
      }
      const partition = context.random.nextInt(context.partitionCount);
      await send(partition, `${client.name}-${sequence++}`);
    }
  })();
  return { stop: () => (isStopped = true), done };
}
