/**
 * The commands of the partition scenarios that play the controller: they commit metadata
 * records (TopicRecord, ConfigRecord, PartitionRecord, PartitionChangeRecord) for the scenario's
 * partition, and answer the leaders' AlterPartition proposals.
 */
import assert from "node:assert/strict";
import { ErrorCode, type ErrorName } from "../../../src/common/index.js";
import type { MetadataRecord } from "../../../src/protocol/index.js";
import {
  configRecord,
  partitionChange,
  partitionRecord,
  topicRecord,
} from "../../../src/metadata/records.test-support.js";
import { optionsOf } from "../script.js";
import { ORDERS } from "./broker.js";
import type { PartitionCluster } from "./cluster.js";

const TOPIC_ID = "0123456789abcdef0123456789abcdef";

export function idList(text: string | undefined): number[] {
  return text === undefined || text === "" || text === "-" ? [] : text.split(",").map(Number);
}

/** `create-topic replicas=<ids> [isr=<ids>] [min-isr=<n>]`: the leader is the first replica. */
export function topicRecords(options: Map<string, string>): MetadataRecord[] {
  const replicas = idList(options.get("replicas"));
  const isr = options.has("isr") ? idList(options.get("isr")) : replicas;
  const records = [topicRecord(ORDERS.topic, TOPIC_ID)];
  const minIsr = options.get("min-isr");
  if (minIsr !== undefined) records.push(topicConfig("min.insync.replicas", minIsr));
  records.push(partitionRecord(TOPIC_ID, ORDERS.partition, replicas, { isr }));
  return records;
}

export function configRecords(options: Map<string, string>): MetadataRecord[] {
  return [...options].map(([name, value]) => topicConfig(name, value));
}

/** `broker-config <id>|default <name>=<value>...`: a broker's dynamic configs, or the default. */
export function brokerConfigRecords(target: string | undefined, args: string[]): MetadataRecord[] {
  const BROKER_RESOURCE = 4;
  assert.ok(target !== undefined && !target.includes("="), "broker-config <id>|default ...");
  const name = target === "default" ? "" : target;
  return [...optionsOf(args)].map(([key, value]) =>
    configRecord(BROKER_RESOURCE, name, key, value),
  );
}

function topicConfig(name: string, value: string): MetadataRecord {
  const TOPIC_RESOURCE = 2;
  return configRecord(TOPIC_RESOURCE, ORDERS.topic, name, value);
}

/**
 * `elect <id>|none [isr=<ids>] [elr=<ids>] [epoch=<e>]`: a new leader (the leader epoch goes up
 * by one); `epoch` checks the new leader epoch.
 */
export async function elect(cluster: PartitionCluster, args: string[]): Promise<void> {
  const options = optionsOf(args.slice(1));
  const leader = args[0] === "none" ? -1 : Number(args[0]);
  const isr = options.has("isr") ? { isr: idList(options.get("isr")) } : {};
  const elr = options.has("elr") ? { eligibleLeaderReplicas: idList(options.get("elr")) } : {};
  const change = { leader, ...isr, ...elr };
  await cluster.commit([partitionChange(TOPIC_ID, ORDERS.partition, change)]);
  const expected = options.get("epoch");
  if (expected !== undefined) {
    assert.equal(String(cluster.controller.partition?.leaderEpoch), expected, "the leader epoch");
  }
}

/** `alter-partition [from=<id>] ok|error=<CODE>`. */
export async function alterPartition(cluster: PartitionCluster, options: Map<string, string>) {
  const from = options.has("from") ? Number(options.get("from")) : undefined;
  const name = options.get("error");
  let errorCode: number | undefined;
  if (name !== undefined) {
    errorCode = ErrorCode[name as ErrorName];
    assert.ok(errorCode !== undefined, `no error code ${name}`);
  } else assert.ok(options.has("ok"), "alter-partition answers ok or error=<CODE>");
  await cluster.world.settle();
  if (cluster.controller.answer(from, errorCode)) await cluster.publish();
  else await cluster.world.settle();
}

/** `set-isr <ids>`: the controller changes the ISR alone (the partition epoch goes up by one). */
export function isrChange(text: string | undefined): MetadataRecord[] {
  return [partitionChange(TOPIC_ID, ORDERS.partition, { isr: idList(text) })];
}
