/**
 * The network between the scenario brokers: every request a follower's fetcher sends its leader
 * (Fetch, OffsetsForLeaderEpoch, ListOffsets) is held on its link until the script delivers it
 * or drops it. Delivering answers it with the receiving broker's real read path, as its request
 * handlers would (leader-answers.ts), and hands the answer back to the fetcher. A request of a
 * broker that crashed since still reaches its receiver, but its answer goes nowhere.
 */
import type { BrokerId } from "../../../src/common/index.js";
import {
  partitionKey,
  type FollowerFetchRequest,
  type FollowerFetchResult,
  type LeaderEndpoint,
} from "../../../src/replication/index.js";
import type {
  EpochQuery,
  EpochQueryResult,
  OffsetQueryResult,
} from "../../../src/replication/leader-endpoint.driver.js";
import type { TopicPartition } from "../../../src/storage/index.js";
import type { BrokerProcess } from "./broker.js";
import {
  answerEpochs,
  answerFetch,
  answerListOffsets,
  describeAnswer,
  describeRequest,
  hasEffect,
  type Answer,
  type HeldCall,
} from "./leader-answers.js";
import type { ScenarioWorld } from "./world.js";

/** A link `from->to`; an absent end matches every broker. */
export interface Link {
  readonly from?: number;
  readonly to?: number;
}

interface Held {
  readonly from: number;
  /** The sender's run: an answer for an earlier run is lost. */
  readonly run: number;
  readonly to: number;
  readonly call: HeldCall;
  readonly resolve: (answer: Answer) => void;
}

/** What the network needs to know of the brokers. */
export interface BrokerDirectory {
  /** The running process of `id`, if it is up. */
  readonly running: (id: number) => BrokerProcess | undefined;
  /** Which run of `id` is the current one (it counts restarts). */
  readonly currentRun: (id: number) => number;
}

export class HeldNetwork {
  private held: Held[] = [];

  constructor(
    private readonly world: ScenarioWorld,
    private readonly brokers: BrokerDirectory,
  ) {}

  /** The endpoint through which run `run` of broker `from` reaches the leader `to`. */
  endpoint(from: number, run: number, to: BrokerId): LeaderEndpoint {
    const hold = <T extends Answer>(call: HeldCall) =>
      new Promise<T>((resolve) => {
        this.held.push({ from, run, to, call, resolve: resolve as (answer: Answer) => void });
      });
    return {
      fetch: (request: FollowerFetchRequest) =>
        hold<FollowerFetchResult>({ kind: "fetch", request }),
      endOffsetsForEpochs: (queries: readonly EpochQuery[]) =>
        hold<ReadonlyMap<string, EpochQueryResult>>({ kind: "epochs", queries }),
      fetchOffset: (
        topicPartition: TopicPartition,
        options: { readonly currentLeaderEpoch: number; readonly timestamp: -1 | -2 },
      ) => hold<OffsetQueryResult>({ kind: "listOffsets", topicPartition, ...options }),
    };
  }

  /** The held requests, oldest first. */
  pending(): string[] {
    return this.held.map((held) => `${held.from}->${held.to} ${describeRequest(held.call)}`);
  }

  /**
   * Delivers the requests held on `link` now, oldest first (those they cause wait for the next
   * delivery); resolves to how many had an effect (records, a divergence, an error).
   */
  async deliver(link: Link, options: { readonly isQuiet: boolean }): Promise<number> {
    const chosen = this.take(link);
    let effects = 0;
    for (const held of chosen) {
      const target = this.brokers.running(held.to);
      // What answering makes the receiver print (an acknowledged produce) follows the request.
      const at = this.world.lines.length;
      const answer =
        target === undefined
          ? failure(held.call, `broker ${held.to} is down`)
          : await this.world.run(answerOf(target, held.call));
      if (hasEffect(answer)) effects++;
      const isLost = this.brokers.currentRun(held.from) !== held.run;
      const suffix = isLost ? ` (lost: ${held.from} restarted or is down)` : "";
      if (!options.isQuiet || target === undefined) {
        const request = `${held.from}->${held.to} ${describeRequest(held.call)}`;
        this.world.lines.splice(at, 0, `${request} => ${describeAnswer(answer)}${suffix}`);
      }
      if (!isLost) held.resolve(answer);
      await this.world.settle();
    }
    return effects;
  }

  /** Loses the requests held on `link`: their senders see a failed request. */
  async drop(link: Link, reason = "dropped"): Promise<void> {
    for (const held of this.take(link)) {
      this.world.print(`${held.from}->${held.to} ${describeRequest(held.call)} => ${reason}`);
      if (this.brokers.currentRun(held.from) === held.run) held.resolve(failure(held.call, reason));
    }
    await this.world.settle();
  }

  /** How many requests are held. */
  get size(): number {
    return this.held.length;
  }

  private take(link: Link): Held[] {
    const matches = (held: Held) =>
      (link.from === undefined || held.from === link.from) &&
      (link.to === undefined || held.to === link.to);
    const chosen = this.held.filter(matches);
    this.held = this.held.filter((held) => !matches(held));
    return chosen;
  }
}

function answerOf(target: BrokerProcess, call: HeldCall): Promise<Answer> {
  const replicaManager = target.replicaManager;
  switch (call.kind) {
    case "fetch":
      return answerFetch(replicaManager, call.request);
    case "epochs":
      return Promise.resolve(answerEpochs(replicaManager, call.queries));
    case "listOffsets":
      return answerListOffsets(replicaManager, call);
  }
}

/** The answer a fetcher gets for a request that failed on the way. */
function failure(call: HeldCall, message: string): Answer {
  const failed = { kind: "failed", message } as const;
  if (call.kind !== "epochs") return failed;
  return new Map(call.queries.map((query) => [partitionKey(query.topicPartition), failed]));
}
