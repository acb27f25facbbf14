/**
 * Topic auto-creation for Metadata requests (Kafka's AutoTopicCreationManager): when
 * `auto.create.topics.enable` is on and the client allows it, a Metadata request naming a topic
 * that does not exist sends CreateTopics for it to the active controller, with
 * `num.partitions` and `default.replication.factor`, and answers at once with
 * LEADER_NOT_AVAILABLE; the client asks again and finds the topic once the controller made it.
 * A topic already being created is not sent twice, and at most `inflightTopicsMax` topics are
 * being created at a time (a client asking for more is answered the same and retries).
 */
import { AssertionError } from "../../common/index.js";
import type { Logger } from "../../ports/index.js";
import { createTopics } from "../../protocol/index.js";
import { createdTopicsShown } from "./forwarded-effects.js";
import type { Forwarder } from "./forwarder.js";

/** The CreateTopics version auto-creation sends (the newest the controller serves). */
export const AUTO_CREATE_TOPICS_VERSION = 7;
/** The most topics being auto-created at once. */
export const AUTO_CREATE_INFLIGHT_TOPICS_MAX = 1000;

/** What Metadata needs from auto-creation. */
export interface TopicAutoCreation {
  /** Starts creating the topics not already being created; does not wait. */
  createTopics(names: readonly string[]): void;
}

/** Options of the auto-creator. */
export interface AutoTopicCreatorOptions {
  readonly numPartitions: number;
  readonly defaultReplicationFactor: number;
  /** The CreateTopics timeout sent to the controller (Kafka uses `request.timeout.ms`). */
  readonly timeoutMs: number;
  readonly logger: Logger;
  readonly inflightTopicsMax?: number;
}

/** Sends CreateTopics for auto-created topics through the forwarder. */
export class AutoTopicCreator implements TopicAutoCreation {
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(
    private readonly forwarder: Forwarder,
    private readonly options: AutoTopicCreatorOptions,
  ) {}

  get inflightTopics(): string[] {
    return [...this.inflight.keys()];
  }

  createTopics(names: readonly string[]): void {
    const limit = this.options.inflightTopicsMax ?? AUTO_CREATE_INFLIGHT_TOPICS_MAX;
    const fresh = [...new Set(names)]
      .filter((name) => !this.inflight.has(name))
      .slice(0, Math.max(0, limit - this.inflight.size));
    if (fresh.length === 0) return;
    const creating = this.send(fresh).finally(() => {
      for (const name of fresh) this.inflight.delete(name);
    });
    for (const name of fresh) this.inflight.set(name, creating);
  }

  /** Resolves when no creation is in flight (shutdown and tests wait on it). */
  async whenIdle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...new Set(this.inflight.values())]);
  }

  private async send(names: readonly string[]): Promise<void> {
    const { numPartitions, defaultReplicationFactor, timeoutMs, logger } = this.options;
    const topics = names.map((name) => ({
      name,
      numPartitions,
      replicationFactor: defaultReplicationFactor,
      assignments: [],
      configs: [],
    }));
    try {
      const body = { topics, timeoutMs, validateOnly: false };
      const result = await this.forwarder.forward(
        createTopics,
        AUTO_CREATE_TOPICS_VERSION,
        body,
        (response, image) => createdTopicsShown(body, response, image),
      );
      if (result.kind === "failed") {
        logger.warn("topic auto-creation failed", {
          topics: names.join(","),
          error: result.message,
        });
        return;
      }
      for (const topic of result.body.topics) {
        if (topic.errorCode === 0) continue;
        logger.warn("topic auto-creation refused", {
          topic: topic.name,
          errorCode: topic.errorCode,
          error: topic.errorMessage ?? "",
        });
      }
    } catch (error) {
      // A failed send is retried by the client's next Metadata request; a bug goes on.
      if (error instanceof AssertionError) throw error;
      logger.warn("topic auto-creation failed", { topics: names.join(","), error: String(error) });
    }
  }
}
