/**
 * The server-side assignors of consumer groups (KIP-848), named as in Kafka's
 * `group.consumer.assignors`: `uniform` spreads every subscribed partition so that members'
 * counts differ by at most one among members that could take a partition, keeping partitions
 * where they are when it can; `range` gives each topic's members (by member id) contiguous
 * ranges of its partitions, the first ones one more when they do not divide evenly.
 */
import type { Assignment } from "./current-assignment.js";

/** A subscribed topic as the metadata image shows it. */
export interface SubscribedTopic {
  readonly name: string;
  readonly topicId: string;
  readonly partitionCount: number;
}

export interface AssignorMember {
  readonly memberId: string;
  readonly subscribedTopicNames: readonly string[];
  /** Its previous target assignment, which `uniform` keeps where it can. */
  readonly previousTarget: Assignment;
}

export interface AssignorInput {
  readonly members: readonly AssignorMember[];
  readonly topics: ReadonlyMap<string, SubscribedTopic>;
}

export type AssignorName = "uniform" | "range";

export const ASSIGNOR_NAMES: readonly AssignorName[] = ["uniform", "range"];

/** The target assignment of every member, by member id. */
export function assign(name: AssignorName, input: AssignorInput): Map<string, Assignment> {
  return name === "uniform" ? assignUniform(input) : assignRange(input);
}

function assignRange(input: AssignorInput): Map<string, Assignment> {
  const result = emptyResult(input);
  for (const { topic, members } of topicsWithMembers(input)) {
    const quota = Math.floor(topic.partitionCount / members.length);
    const extra = topic.partitionCount % members.length;
    let next = 0;
    members.forEach((memberId, index) => {
      const count = quota + (index < extra ? 1 : 0);
      for (let partition = next; partition < next + count; partition++) {
        addPartition(result, memberId, topic.topicId, partition);
      }
      next += count;
    });
  }
  return freeze(result);
}

function assignUniform(input: AssignorInput): Map<string, Assignment> {
  const owner = new Map<string, string>();
  const counts = new Map(input.members.map((member) => [member.memberId, 0]));
  const eligible = eligibleMembers(input);
  for (const member of input.members) {
    for (const [topicId, partitions] of member.previousTarget) {
      for (const partition of partitions) {
        const key = partitionKey(topicId, partition);
        if (!(eligible.get(key) ?? []).includes(member.memberId) || owner.has(key)) continue;
        owner.set(key, member.memberId);
        counts.set(member.memberId, (counts.get(member.memberId) ?? 0) + 1);
      }
    }
  }
  for (const [key, candidates] of eligible) {
    if (owner.has(key)) continue;
    const chosen = leastLoaded(candidates, counts);
    owner.set(key, chosen);
    counts.set(chosen, (counts.get(chosen) ?? 0) + 1);
  }
  rebalance(owner, counts, eligible);
  const result = emptyResult(input);
  for (const [key, memberId] of owner) {
    const { topicId, partition } = parseKey(key);
    addPartition(result, memberId, topicId, partition);
  }
  return freeze(result);
}

/**
 * Moves partitions from a member to one with at least two fewer that could take them, until
 * none can move; each move lowers the sum of squared counts, so this ends.
 */
function rebalance(
  owner: Map<string, string>,
  counts: Map<string, number>,
  eligible: ReadonlyMap<string, readonly string[]>,
): void {
  let moved = true;
  while (moved) {
    moved = false;
    for (const [key, memberId] of [...owner].reverse()) {
      const current = counts.get(memberId) ?? 0;
      const target = leastLoaded(eligible.get(key) ?? [], counts);
      if ((counts.get(target) ?? 0) + 1 >= current) continue;
      owner.set(key, target);
      counts.set(memberId, current - 1);
      counts.set(target, (counts.get(target) ?? 0) + 1);
      moved = true;
    }
  }
}

/** Every subscribed partition, in topic-name then partition order, and who may take it. */
function eligibleMembers(input: AssignorInput): Map<string, string[]> {
  const eligible = new Map<string, string[]>();
  for (const { topic, members } of topicsWithMembers(input)) {
    for (let partition = 0; partition < topic.partitionCount; partition++) {
      eligible.set(partitionKey(topic.topicId, partition), members);
    }
  }
  return eligible;
}

/** Each subscribed topic, by name, with its subscribers by member id. */
function topicsWithMembers(input: AssignorInput): { topic: SubscribedTopic; members: string[] }[] {
  return [...input.topics.values()]
    .sort(byName)
    .map((topic) => ({
      topic,
      members: input.members
        .filter((member) => member.subscribedTopicNames.includes(topic.name))
        .map((member) => member.memberId)
        .sort(),
    }))
    .filter((entry) => entry.members.length > 0);
}

function leastLoaded(candidates: readonly string[], counts: ReadonlyMap<string, number>): string {
  let best = candidates[0];
  for (const candidate of candidates) {
    if ((counts.get(candidate) ?? 0) < (counts.get(best ?? "") ?? 0)) best = candidate;
  }
  if (best === undefined) throw new Error("a subscribed partition has no member");
  return best;
}

function emptyResult(input: AssignorInput): Map<string, Map<string, Set<number>>> {
  return new Map(input.members.map((member) => [member.memberId, new Map()]));
}

function addPartition(
  result: Map<string, Map<string, Set<number>>>,
  memberId: string,
  topicId: string,
  partition: number,
): void {
  const topics = result.get(memberId) ?? new Map<string, Set<number>>();
  const partitions = topics.get(topicId) ?? new Set<number>();
  partitions.add(partition);
  topics.set(topicId, partitions);
  result.set(memberId, topics);
}

function freeze(result: Map<string, Map<string, Set<number>>>): Map<string, Assignment> {
  return new Map(result);
}

function partitionKey(topicId: string, partition: number): string {
  return `${topicId}\u0000${partition}`;
}

function parseKey(key: string): { topicId: string; partition: number } {
  const at = key.lastIndexOf("\u0000");
  return { topicId: key.slice(0, at), partition: Number(key.slice(at + 1)) };
}

function byName(left: SubscribedTopic, right: SubscribedTopic): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}
