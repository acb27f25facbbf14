/**
 * `sluice topic describe`: each topic's summary line and one line per partition, tab separated
 * as kafka-topics.sh --describe prints them. The configs shown are those not at their default
 * (DescribeConfigs' source other than DEFAULT_CONFIG), as Kafka's tool shows them.
 */
import { ErrorCode, isUuid, uuidToBase64, ZERO_UUID } from "../common/index.js";
import {
  describeConfigs,
  type DescribeConfigsResponse,
  type MetadataResponse,
} from "../protocol/index.js";
import { EXIT, type CommandOutput } from "./command-options.js";
import { kafkaFailure, type ClusterSession } from "./cluster-session.js";
import type { TopicOptions } from "./topic-options.js";

/** DescribeConfigs' resource type of a topic. */
export const TOPIC_RESOURCE = 2;
/** DescribeConfigs' configSource of a value nobody set. */
const DEFAULT_CONFIG_SOURCE = 5;

type MetadataTopic = MetadataResponse["topics"][number];
type MetadataPartition = MetadataTopic["partitions"][number];

export async function describeTopics(
  session: ClusterSession,
  options: TopicOptions,
  io: CommandOutput,
): Promise<number> {
  const wanted = options.values.get("--topic");
  const response = await session.metadata(wanted === undefined ? null : [wanted]);
  const topics: MetadataTopic[] = [];
  for (const topic of response.topics) {
    const isMissing = topic.errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
    if (isMissing && options.booleans.has("--if-exists")) continue;
    if (isMissing) {
      throw kafkaFailure(topic.errorCode, `Topic '${topic.name ?? ""}' does not exist.`);
    }
    if (topic.errorCode !== ErrorCode.NONE) throw kafkaFailure(topic.errorCode);
    if (options.booleans.has("--exclude-internal") && topic.isInternal) continue;
    topics.push(topic);
  }
  topics.sort((a, b) => (a.name ?? "").localeCompare(b.name ?? ""));
  const configs = await nonDefaultConfigs(
    session,
    topics.map((topic) => topic.name ?? ""),
  );
  for (const topic of topics) {
    for (const line of describeLines(topic, configs.get(topic.name ?? "") ?? "")) io.write(line);
  }
  return EXIT.ok;
}

/** `name=value,...` of each topic's configs not at their default. */
async function nonDefaultConfigs(
  session: ClusterSession,
  names: readonly string[],
): Promise<ReadonlyMap<string, string>> {
  const byTopic = new Map<string, string>();
  if (names.length === 0) return byTopic;
  const resources = names.map((resourceName) => ({
    resourceType: TOPIC_RESOURCE,
    resourceName,
    configurationKeys: null,
  }));
  const response: DescribeConfigsResponse = await session.send(
    describeConfigs,
    { resources, includeSynonyms: false, includeDocumentation: false },
    { maxVersion: 4 },
  );
  for (const result of response.results) {
    if (result.errorCode !== ErrorCode.NONE)
      throw kafkaFailure(result.errorCode, result.errorMessage);
    const text = result.configs
      .filter((entry) => entry.configSource !== DEFAULT_CONFIG_SOURCE)
      .map((entry) => `${entry.name}=${entry.value ?? "null"}`)
      .join(",");
    byTopic.set(result.resourceName, text);
  }
  return byTopic;
}

/** The summary line and the partition lines of one topic. */
export function describeLines(topic: MetadataTopic, configs: string): string[] {
  const name = topic.name ?? "";
  const partitions = [...topic.partitions].sort((a, b) => a.partitionIndex - b.partitionIndex);
  const topicId =
    isUuid(topic.topicId) && topic.topicId !== ZERO_UUID
      ? `\tTopicId: ${uuidToBase64(topic.topicId)}`
      : "";
  const replicationFactor = partitions[0]?.replicaNodes.length ?? 0;
  const summary =
    `Topic: ${name}${topicId}\tPartitionCount: ${partitions.length}` +
    `\tReplicationFactor: ${replicationFactor}\tConfigs: ${configs}`;
  return [summary, ...partitions.map((partition) => partitionLine(name, partition))];
}

/** Metadata does not carry the ELR, which kafka-topics prints as N/A when it is not known. */
function partitionLine(topic: string, partition: MetadataPartition): string {
  const leader = partition.leaderId >= 0 ? String(partition.leaderId) : "none";
  return (
    `\tTopic: ${topic}\tPartition: ${partition.partitionIndex}\tLeader: ${leader}` +
    `\tReplicas: ${partition.replicaNodes.join(",")}\tIsr: ${partition.isrNodes.join(",")}` +
    "\tElr: N/A\tLastKnownElr: N/A"
  );
}
