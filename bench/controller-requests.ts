/**
 * The requests the controller benchmarks send: broker registrations and heartbeats and
 * CreateTopics, each encoded and decoded as the controller listener would, and a partition count
 * to check what they committed.
 */
import {
  METADATA_VERSION_LATEST,
  METADATA_VERSION_MIN,
  QuorumController,
  brokerHeartbeatApi,
  brokerRegistrationApi,
  createTopicsApi,
} from "../src/controller/index.js";
import type { ControllerApi } from "../src/controller/index.js";
import type { MetadataImage } from "../src/metadata/index.js";
import { requestBody } from "../src/controller/quorum/controller-harness.test-support.js";
import { CLUSTER_ID } from "./controller-on-disk.js";

/** The brokers every benchmark registers. */
export const BROKER_IDS = [1, 2, 3] as const;
const PARTITIONS_PER_TOPIC = 100;
/**
 * The partitions of one CreateTopics here: 99 topics of 100 write 9,999 records (one
 * TopicRecord each), within the 10,000 records the controller takes from one user operation
 * (Kafka's MAX_RECORDS_PER_USER_OP); bigger images take several requests.
 */
export const PARTITIONS_PER_REQUEST = 9_900;
const METADATA_VERSIONS = {
  minSupportedVersion: METADATA_VERSION_MIN,
  maxSupportedVersion: METADATA_VERSION_LATEST,
};

/** Sends one request to the controller as the controller listener would, decoded from bytes. */
function send(controller: QuorumController, api: ControllerApi, input: object): Promise<object> {
  const version = api.maxVersion;
  const body = requestBody(api.apiKey, version, input);
  const header = { apiKey: api.apiKey, apiVersion: version, correlationId: 1, clientId: "bench" };
  return api.handle(controller, {
    header: { ...header, taggedFields: [] },
    body,
    listenerName: "CONTROLLER",
  });
}

/** One heartbeat of a broker that has read the whole committed log; throws unless unfenced. */
export async function heartbeat(
  controller: QuorumController,
  brokerId: number,
  brokerEpoch: number,
): Promise<void> {
  const response = (await send(controller, brokerHeartbeatApi, {
    brokerId,
    brokerEpoch,
    currentMetadataOffset: controller.committedImage.provenance.lastContainedOffset,
    wantFence: false,
    wantShutDown: false,
    offlineLogDirs: [],
  })) as { errorCode: number; isFenced: boolean };
  if (response.errorCode !== 0 || response.isFenced) {
    throw new Error(`broker ${brokerId} heartbeat: error ${response.errorCode}, fenced`);
  }
}

/** Registers brokers 1 to 3 and heartbeats each until unfenced; returns their epochs. */
export async function registerBrokers(controller: QuorumController): Promise<Map<number, number>> {
  const epochs = new Map<number, number>();
  for (const brokerId of BROKER_IDS) {
    const response = await send(controller, brokerRegistrationApi, {
      brokerId,
      clusterId: CLUSTER_ID,
      incarnationId: `c${brokerId.toString(16).padStart(31, "0")}`,
      listeners: [{ name: "PLAINTEXT", host: "localhost", port: 9092, securityProtocol: 0 }],
      features: [{ name: "metadata.version", ...METADATA_VERSIONS }],
      rack: null,
      logDirs: [`d${brokerId.toString(16).padStart(31, "0")}`],
    });
    const { errorCode, brokerEpoch } = response as { errorCode: number; brokerEpoch: number };
    if (errorCode !== 0) throw new Error(`broker ${brokerId} did not register: ${errorCode}`);
    await heartbeat(controller, brokerId, brokerEpoch);
    epochs.set(brokerId, brokerEpoch);
  }
  return epochs;
}

/**
 * Creates `partitions` partitions as topics of 100 with replication factor 3, one CreateTopics
 * request per 10,000 partitions, each waited for before the next. With `leaderId` every
 * partition is assigned to brokers 1 to 3 with that broker first (the preferred leader).
 */
export async function createPartitions(
  controller: QuorumController,
  options: { readonly prefix: string; readonly partitions: number; readonly leaderId?: number },
): Promise<void> {
  const topicCount = Math.ceil(options.partitions / PARTITIONS_PER_TOPIC);
  const topicsPerRequest = PARTITIONS_PER_REQUEST / PARTITIONS_PER_TOPIC;
  for (let first = 0; first < topicCount; first += topicsPerRequest) {
    const topics = [];
    for (let topic = first; topic < Math.min(topicCount, first + topicsPerRequest); topic++) {
      const count = Math.min(
        PARTITIONS_PER_TOPIC,
        options.partitions - topic * PARTITIONS_PER_TOPIC,
      );
      topics.push(topicRequest(`${options.prefix}-${topic}`, count, options.leaderId));
    }
    const response = (await send(controller, createTopicsApi, {
      topics,
      timeoutMs: 60_000,
      validateOnly: false,
    })) as { topics: { name: string; errorCode: number; errorMessage: string | null }[] };
    const failed = response.topics.find((topic) => topic.errorCode !== 0);
    if (failed !== undefined) {
      throw new Error(`${failed.name}: error ${failed.errorCode} ${failed.errorMessage ?? ""}`);
    }
  }
}

function topicRequest(name: string, partitions: number, leaderId: number | undefined): object {
  if (leaderId === undefined) {
    return { name, numPartitions: partitions, replicationFactor: 3, assignments: [], configs: [] };
  }
  const brokerIds = [leaderId, ...BROKER_IDS.filter((id) => id !== leaderId)];
  const assignments = Array.from({ length: partitions }, (_, partitionIndex) => ({
    partitionIndex,
    brokerIds,
  }));
  return { name, numPartitions: -1, replicationFactor: -1, assignments, configs: [] };
}

/** How many partitions of `image` have a leader that `isCounted` accepts. */
export function countPartitions(
  image: MetadataImage,
  isCounted: (leader: number) => boolean,
): number {
  let count = 0;
  for (const topic of image.topics.byId.values()) {
    for (const partition of topic.partitions.values()) if (isCounted(partition.leader)) count++;
  }
  return count;
}
