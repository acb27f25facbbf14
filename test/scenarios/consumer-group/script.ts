/**
 * The commands of the consumer group scenario scripts (the language is ../script.ts; the
 * commands are listed in README.md here). They drive ConsumerGroups, the pure owner of every
 * KIP-848 group, at the script's clock; `advance` fires deadlines at their own times. A topic's
 * id is its name, so that assignments read plainly.
 */
import { ErrorCode, errorName } from "../../../src/common/index.js";
import {
  ConsumerGroups,
  DEFAULT_CONSUMER_GROUP_CONFIG,
  type Assignment,
  type AssignorName,
  type ClassicOccupant,
  type ConsumerHeartbeatRequest,
  type OwnedPartitions,
  type TopicCatalog,
} from "../../../src/coordinator/index.js";
import { checkFacts, optionsOf, type ScenarioRunner } from "../script.js";

export class ConsumerGroupScriptRunner implements ScenarioRunner {
  private groups = new ConsumerGroups(DEFAULT_CONSUMER_GROUP_CONFIG);
  private readonly topics = new Map<string, number>();
  /** Bumped by each `topic` and `delete-topic`, as a new metadata image would be. */
  private topicsVersion = 0;
  private nowMs = 0;
  private classic = new Map<string, ClassicOccupant>();

  run(line: string): string[] {
    const [command, ...args] = line
      .trim()
      .split(/\s+/)
      .map((word) => (word === '""' ? "" : word));
    switch (command) {
      case "coordinator":
        return this.coordinator(args);
      case "topic":
        this.topics.set(args[0] ?? "", Number(optionsOf(args.slice(1)).get("partitions")));
        this.topicsVersion += 1;
        return [];
      case "delete-topic":
        this.topics.delete(args[0] ?? "");
        this.topicsVersion += 1;
        return [];
      case "classic":
        this.classic.set(args[0] ?? "", (args[1] ?? "none") as ClassicOccupant);
        return [];
      case "heartbeat":
        return this.heartbeat(args);
      case "leave":
        return this.heartbeat([args[0] ?? "", args[1] ?? "", "epoch=-1"]);
      case "advance":
        return this.advance(Number(args[0]));
      case "commit":
        return [this.commit(args)];
      case "describe":
        return this.describe(args[0] ?? "");
      case "check":
        this.check(args[0] ?? "", args.slice(1));
        return [];
      default:
        throw new Error(`unknown command ${command}`);
    }
  }

  private coordinator(args: readonly string[]): string[] {
    const options = optionsOf(args);
    const base = DEFAULT_CONSUMER_GROUP_CONFIG;
    const assignors = options.get("assignors")?.split(",") as AssignorName[] | undefined;
    this.groups = new ConsumerGroups({
      sessionTimeoutMs: Number(options.get("session") ?? base.sessionTimeoutMs),
      heartbeatIntervalMs: base.heartbeatIntervalMs,
      maxSize: Number(options.get("max-size") ?? base.maxSize),
      assignors: assignors ?? base.assignors,
    });
    this.nowMs = 0;
    this.topics.clear();
    this.classic.clear();
    return [];
  }

  private heartbeat(args: readonly string[]): string[] {
    const [groupId = "", memberId = ""] = args;
    const options = optionsOf(args.slice(2));
    const epoch = Number(options.get("epoch") ?? "0");
    const owned = options.get("owned");
    const subscribe = options.get("subscribe");
    const request: ConsumerHeartbeatRequest = {
      memberId: memberId === "-" ? "" : memberId,
      memberEpoch: epoch,
      instanceId: options.get("instance") ?? null,
      rackId: null,
      rebalanceTimeoutMs: Number(options.get("rebalance") ?? (epoch === 0 ? "30000" : "-1")),
      subscribedTopicNames: subscribe === undefined ? null : subscribe.split(","),
      subscribedTopicRegex: options.get("regex")?.replace(/^""$/, "") ?? null,
      serverAssignor: options.get("assignor") ?? null,
      topicPartitions: owned === undefined ? (epoch === 0 ? [] : null) : ownedOf(owned),
      clientId: "client",
      clientHost: "/127.0.0.1",
    };
    const result = this.groups.heartbeat(groupId, request, {
      nowMs: this.nowMs,
      topics: this.catalog(),
      classic: this.classic.get(groupId) ?? "none",
    });
    const words = [`${memberId}: ${errorName(result.errorCode)}`];
    if (result.errorCode === ErrorCode.NONE) {
      words.push(`epoch=${result.memberEpoch}`);
      if (result.assignment !== null) words.push(`assignment=${assignmentText(result.assignment)}`);
      if (result.replacedClassic) words.push("replaced-classic");
    } else if (result.errorMessage !== null) {
      words.push(`(${result.errorMessage})`);
    }
    return [words.join(" "), ...this.summary(groupId)];
  }

  private catalog(): TopicCatalog {
    const topics = this.topics;
    return {
      topic: (name) => {
        const partitionCount = topics.get(name);
        return partitionCount === undefined ? undefined : { topicId: name, partitionCount };
      },
      names: () => topics.keys(),
      version: this.topicsVersion,
    };
  }

  private advance(ms: number): string[] {
    const until = this.nowMs + ms;
    const printed: string[] = [];
    for (;;) {
      const next = this.groups.nextDeadlineMs();
      if (next === undefined || next > until) break;
      this.nowMs = Math.max(this.nowMs, next);
      const before = this.summaries();
      this.groups.tick(this.nowMs);
      const after = this.summaries();
      const changed = after.filter((line) => !before.includes(line));
      if (changed.length > 0) printed.push(`time ${this.nowMs}`, ...changed);
    }
    this.nowMs = until;
    return printed;
  }

  private commit(args: readonly string[]): string {
    const [groupId = "", memberId = ""] = args;
    const epoch = Number(optionsOf(args.slice(2)).get("epoch"));
    const group = this.groups.group(groupId);
    if (group === undefined) return `${memberId}: OffsetCommit GROUP_ID_NOT_FOUND`;
    return `${memberId}: OffsetCommit ${errorName(group.validateOffsetRequest(memberId, epoch))}`;
  }

  private describe(groupId: string): string[] {
    const group = this.groups.group(groupId);
    if (group === undefined) return [`${groupId}: Dead`];
    const head = `${groupId}: ${group.state} epoch=${group.groupEpoch}`;
    const epochs = `assignment-epoch=${group.assignmentEpoch} assignor=${group.assignorName}`;
    const lines = [`${head} ${epochs}`];
    for (const member of group.describeMembers()) {
      lines.push(
        `  ${member.memberId} epoch=${member.memberEpoch} ${member.state}` +
          ` assigned=${assignmentText(member.assignment)}` +
          ` target=${assignmentText(member.targetAssignment)}` +
          ` subscribed=${member.subscribedTopicNames.join(",")}` +
          (member.subscribedTopicRegex === null ? "" : ` regex=${member.subscribedTopicRegex}`),
      );
    }
    return lines;
  }

  private check(groupId: string, expectations: readonly string[]): void {
    const group = this.groups.group(groupId);
    const facts: Record<string, string> = {
      state: group?.state ?? "Dead",
      epoch: String(group?.groupEpoch ?? -1),
      "assignment-epoch": String(group?.assignmentEpoch ?? -1),
      members: group === undefined ? "-" : [...group.members.keys()].sort().join(",") || "-",
    };
    for (const member of group?.describeMembers() ?? []) {
      facts[`${member.memberId}.assigned`] = assignmentText(member.assignment);
      facts[`${member.memberId}.epoch`] = String(member.memberEpoch);
    }
    checkFacts(facts, expectations, groupId);
  }

  private summary(groupId: string): string[] {
    const group = this.groups.group(groupId);
    if (group === undefined) return [`${groupId}: none`];
    return [`${groupId}: ${group.state} epoch=${group.groupEpoch}`];
  }

  private summaries(): string[] {
    return [...this.groups.all].map((group) => {
      const members = [...group.members.keys()].sort().join(",") || "-";
      return `${group.groupId}: ${group.state} epoch=${group.groupEpoch} members=${members}`;
    });
  }
}

/** `<topic>-<partition>,...` or `-` for none. */
function ownedOf(text: string): OwnedPartitions[] {
  if (text === "-") return [];
  const byTopic = new Map<string, number[]>();
  for (const item of text.split(",")) {
    const at = item.lastIndexOf("-");
    const topicId = item.slice(0, at);
    byTopic.set(topicId, [...(byTopic.get(topicId) ?? []), Number(item.slice(at + 1))]);
  }
  return [...byTopic].map(([topicId, partitions]) => ({ topicId, partitions }));
}

function assignmentText(assignment: Assignment): string {
  const items: string[] = [];
  for (const topicId of [...assignment.keys()].sort()) {
    const partitions = [...(assignment.get(topicId) ?? [])].sort((a, b) => a - b);
    for (const partition of partitions) items.push(`${topicId}-${partition}`);
  }
  return items.join(",") || "-";
}
