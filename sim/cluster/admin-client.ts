/**
 * The simulation's admin client: it creates topics through whichever controller is active, in
 * that controller's turn, and tries again (another controller, later) when the answer is
 * NOT_CONTROLLER or does not come. A topic that already exists counts as created, since an
 * earlier attempt may have committed without an answer.
 */
import { ErrorCode } from "../../src/common/index.js";
import { createTopicsApi } from "../../src/controller/index.js";
import type { CreateTopicsRequest, CreateTopicsResponse } from "../../src/protocol/index.js";
import type { Scheduler } from "../scheduler.js";
import type { ClusterProcess } from "./cluster-process.js";
import { ControllerMember } from "./controller-member.js";

/** One topic to create. */
export interface TopicSpec {
  readonly name: string;
  readonly numPartitions: number;
  readonly replicationFactor: number;
  readonly isUncleanElectionEnabled: boolean;
}

/** How long one attempt may wait for its answer. */
const attemptTimeoutMs = 1000;

function activeController(controllers: readonly ClusterProcess[]): ClusterProcess | undefined {
  return controllers.find(
    (process) => process.member instanceof ControllerMember && process.member.controller.isActive,
  );
}

function requestBody(topic: TopicSpec): CreateTopicsRequest {
  const configs = topic.isUncleanElectionEnabled
    ? [{ name: "unclean.leader.election.enable", value: "true" }]
    : [];
  return {
    topics: [
      {
        name: topic.name,
        numPartitions: topic.numPartitions,
        replicationFactor: topic.replicationFactor,
        assignments: [],
        configs,
      },
    ],
    timeoutMs: attemptTimeoutMs,
    validateOnly: false,
  };
}

/** Sends one attempt to `process`'s controller; resolves with the topic's error code. */
function attempt(process: ClusterProcess, topic: TopicSpec): Promise<number> {
  return new Promise((resolve) => {
    process.enqueue(() => {
      const member = process.member;
      if (!(member instanceof ControllerMember)) return;
      const header = { apiKey: 19, apiVersion: 7, correlationId: 0, clientId: "sim-admin" };
      void createTopicsApi
        .handle(member.controller, {
          header: { ...header, taggedFields: [] },
          body: requestBody(topic),
          listenerName: "CONTROLLER",
        })
        .then((response) => {
          const topics = (response as CreateTopicsResponse).topics;
          resolve(topics[0]?.errorCode ?? ErrorCode.UNKNOWN_SERVER_ERROR);
        });
    });
  });
}

/**
 * Creates `topic`, retrying until it exists or `deadlineMs` (simulated) passes; returns whether
 * it was created.
 */
export async function createTopic(options: {
  readonly scheduler: Scheduler;
  readonly controllers: readonly ClusterProcess[];
  readonly topic: TopicSpec;
  readonly deadlineMs: number;
}): Promise<boolean> {
  const { scheduler, controllers, topic, deadlineMs } = options;
  while (scheduler.nowMs() < deadlineMs) {
    const target = activeController(controllers);
    if (target === undefined) {
      await scheduler.runFor(50);
      continue;
    }
    let errorCode: number | undefined;
    void attempt(target, topic).then((code) => (errorCode = code));
    await scheduler.runUntil(() => errorCode !== undefined, scheduler.nowMs() + attemptTimeoutMs);
    if (errorCode === ErrorCode.NONE || errorCode === ErrorCode.TOPIC_ALREADY_EXISTS) return true;
    await scheduler.runFor(50);
  }
  return false;
}
