/**
 * The commands of the group scenario scripts (the language is ../script.ts; the commands are
 * listed in README.md here). They drive GroupCoordinatorState, the pure owner of every group and
 * its offsets, as the driver does: every command runs at the script's clock, `advance` fires the
 * deadlines that come due at their own times, and an accepted commit is applied at once, as if
 * the log had made it durable then; so is a group's GroupMetadata record, unless `writes hold`
 * keeps the records until `writes complete <error>`.
 */
import assert from "node:assert/strict";
import { ErrorCode, errorName } from "../../../src/common/index.js";
import {
  GroupCoordinatorState,
  type ClassicGroupStore,
  type GroupDelivery,
  type OffsetRecord,
} from "../../../src/coordinator/index.js";
import { checkFacts, optionsOf, type ScenarioRunner } from "../script.js";
import {
  changes,
  deliveryLine,
  describeGroup,
  describeLines,
  factsOf,
  joinLine,
  summaries,
  syncLine,
} from "./render.js";
import {
  commitRecordsOf,
  configOf,
  generationOf,
  instanceOf,
  joinRequestOf,
  leavingMemberOf,
  syncRequestOf,
  topicPartitionOf,
} from "./requests.js";

/** A command of one member of one group, with the rest of its arguments. */
interface MemberCommand {
  readonly groupId: string;
  readonly memberId: string;
  readonly args: string[];
}

/** How many deadlines one `advance` may fire before the script is taken to loop. */
const DEADLINES_PER_ADVANCE_MAX = 10_000;

/** Runs one command against the coordinator (created by `coordinator`), returning its lines. */
export class GroupScriptRunner implements ScenarioRunner {
  private state: GroupCoordinatorState | null = null;
  private nowMs = 0;
  private lines: string[] = [];
  /** GroupMetadata records waiting for `writes complete`; undefined: durable at once. */
  private held: ClassicGroupStore[] | undefined = undefined;

  run(line: string): string[] {
    // `""` stands for an empty argument, such as an empty group id.
    const [command = "", ...args] = line
      .trim()
      .split(/\s+/)
      .map((word) => (word === '""' ? "" : word));
    if (command === "coordinator") {
      this.state = new GroupCoordinatorState(configOf(args));
      this.nowMs = 0;
      this.held = undefined;
      return [];
    }
    const state = this.state;
    assert.ok(state !== null, "a scenario starts with `coordinator`");
    this.lines = [];
    if (command === "advance") {
      this.advance(state, Number(args[0]));
    } else {
      this.observe(state, () => {
        this.dispatch(state, command, args);
        this.settleStores(state);
      });
    }
    return this.lines;
  }

  /** Runs `operation`, then prints each group it changed. */
  private observe(state: GroupCoordinatorState, operation: () => void): void {
    const before = summaries(state);
    operation();
    this.lines.push(...changes(before, summaries(state)));
  }

  private say(line: string): void {
    this.lines.push(line);
  }

  private deliver(deliveries: readonly GroupDelivery[]): void {
    for (const delivery of deliveries) this.say(deliveryLine(delivery));
  }

  /** Moves the clock by `ms`, firing each deadline at its own time, as the driver's timer does. */
  private advance(state: GroupCoordinatorState, ms: number): void {
    assert.ok(Number.isInteger(ms) && ms >= 0, "advance takes a whole number of ms");
    const targetMs = this.nowMs + ms;
    for (let fired = 0; ; fired++) {
      assert.ok(fired < DEADLINES_PER_ADVANCE_MAX, "deadlines keep coming due");
      const nextMs = state.nextDeadlineMs();
      if (nextMs === undefined || nextMs > targetMs) break;
      this.nowMs = Math.max(this.nowMs, nextMs);
      const printed = this.lines.length;
      this.observe(state, () => {
        this.deliver(state.tick(this.nowMs));
        this.settleStores(state);
      });
      if (this.lines.length > printed) this.lines.splice(printed, 0, `time ${this.nowMs}`);
    }
    if (this.nowMs !== targetMs || this.lines.length === 0) this.say(`time ${targetMs}`);
    this.nowMs = targetMs;
  }

  /** The records the groups asked for: durable at once, or held for `writes complete`. */
  private settleStores(state: GroupCoordinatorState): void {
    const stores = state.takeClassicStores();
    if (this.held !== undefined) return void this.held.push(...stores);
    for (const store of stores) this.completeStore(state, store, ErrorCode.NONE);
  }

  private completeStore(state: GroupCoordinatorState, store: ClassicGroupStore, errorCode: number) {
    const { groupId, record } = store;
    if (record === null) return;
    const stored = { generationId: record.generationId, errorCode };
    this.deliver(state.onClassicStored(groupId, stored, this.nowMs));
  }

  /** `writes hold` | `writes complete <error>`: records wait, or the held ones end so. */
  private writes(state: GroupCoordinatorState, args: string[]): void {
    const [mode = "", errorText = "NONE"] = args;
    if (mode === "hold") {
      this.held ??= [];
      return;
    }
    assert.equal(mode, "complete", "writes hold | writes complete <error>");
    const errorCode = (ErrorCode as Record<string, number>)[errorText];
    assert.ok(errorCode !== undefined, `unknown error ${errorText}`);
    const held = this.held ?? [];
    this.held = [];
    for (const store of held) {
      const members = store.record?.members.map((member) => member.memberId).join(",") || "-";
      const written =
        store.record === null
          ? "tombstone"
          : `generation=${store.record.generationId} members=${members}`;
      this.say(`${store.groupId}: GroupMetadata ${written} ${errorName(errorCode)}`);
      this.completeStore(state, store, errorCode);
    }
  }

  private dispatch(state: GroupCoordinatorState, command: string, args: string[]): void {
    const [groupId = "", memberId = "", ...rest] = args;
    switch (command) {
      case "join":
        return this.join(state, { groupId, memberId, args: rest });
      case "sync":
        return this.sync(state, { groupId, memberId, args: rest });
      case "heartbeat": {
        const options = optionsOf(rest);
        const groupInstanceId = instanceOf(options);
        const request = { memberId, groupInstanceId, generationId: generationOf(options) };
        const outcome = state.heartbeat(groupId, request, this.nowMs);
        this.say(`${memberId}: Heartbeat ${errorName(outcome.result)}`);
        return this.deliver(outcome.deliveries);
      }
      case "leave": {
        const leaving = args.slice(1);
        const outcome = state.leave(groupId, leaving.map(leavingMemberOf), this.nowMs);
        leaving.forEach((text, index) => {
          this.say(`${text}: LeaveGroup ${errorName(outcome.result[index] ?? -1)}`);
        });
        return this.deliver(outcome.deliveries);
      }
      case "unload":
        return this.deliver(state.unload((id) => id === groupId));
      case "writes":
        return this.writes(state, args);
      default:
        return this.offsetCommand(state, command, args);
    }
  }

  private offsetCommand(state: GroupCoordinatorState, command: string, args: string[]): void {
    const [groupId = "", memberId = "", ...rest] = args;
    switch (command) {
      case "commit":
        return this.commit(state, { groupId, memberId, args: rest });
      case "fetch-offsets":
        return this.say(`${groupId}: ${fetchOffsets(state, groupId, args.slice(1))}`);
      case "delete": {
        const errorCode = deleteGroup(state, groupId, this.nowMs);
        return this.say(`${groupId}: DeleteGroups ${errorName(errorCode)}`);
      }
      default:
        return this.viewCommand(state, command, args);
    }
  }

  private viewCommand(state: GroupCoordinatorState, command: string, args: string[]): void {
    const [groupId = ""] = args;
    switch (command) {
      case "state":
        for (const listed of state.list()) {
          const group = state.group(listed.groupId);
          if (group !== undefined) this.lines.push(...describeGroup(group));
        }
        if (this.lines.length === 0) this.say("no groups");
        return;
      case "describe":
        this.lines.push(...describeLines(state.describe(groupId)));
        return;
      case "list":
        for (const group of state.list()) {
          this.say(`${group.groupId}: ${group.state} type=${group.protocolType || "-"}`);
        }
        if (this.lines.length === 0) this.say("no groups");
        return;
      case "check":
        return checkFacts(factsOf(state, groupId), args.slice(1), `${groupId} at ${this.nowMs} ms`);
      default:
        assert.fail(`unknown scenario command ${command}`);
    }
  }

  /** `join <group> <member> [new] [v=…] [session=…] [rebalance=…] [type=…] [protocols=…]`. */
  private join(state: GroupCoordinatorState, command: MemberCommand): void {
    const isNewMember = command.args.includes("new");
    const request = joinRequestOf(command.memberId, isNewMember, optionsOf(command.args));
    const outcome = state.join(command.groupId, request, this.nowMs);
    const answer = outcome.result;
    this.say(
      answer.kind === "later"
        ? `${command.memberId}: JoinGroup waits`
        : `${command.memberId}: ${joinLine(answer.result, { isNewMember })}`,
    );
    this.deliver(outcome.deliveries);
  }

  /** `sync <group> <member> gen=<n> [assign=<member>:<text>,…] [type=…] [protocol=…]`. */
  private sync(state: GroupCoordinatorState, command: MemberCommand): void {
    const request = syncRequestOf(command.memberId, optionsOf(command.args));
    const outcome = state.sync(command.groupId, request, this.nowMs);
    const answer = outcome.result;
    this.say(
      answer.kind === "later"
        ? `${command.memberId}: SyncGroup waits`
        : `${command.memberId}: ${syncLine(answer.result)}`,
    );
    this.deliver(outcome.deliveries);
  }

  /** `commit <group> <member>|- gen=<n> <topic>-<partition>=<offset>…`. */
  private commit(state: GroupCoordinatorState, command: MemberCommand): void {
    const { groupId } = command;
    const memberId = command.memberId === "-" ? "" : command.memberId;
    const options = optionsOf(command.args);
    const groupInstanceId = instanceOf(options);
    const commit = { memberId, groupInstanceId, generationId: generationOf(options) };
    const errorCode = state.validateCommit(groupId, commit, this.nowMs);
    if (errorCode === ErrorCode.NONE) {
      const records = commitRecordsOf(groupId, optionsOf(command.args), this.nowMs);
      state.replayDurableOffsets(groupId, records, this.nowMs);
    }
    this.say(
      `${command.memberId === "-" ? groupId : memberId}: OffsetCommit ${errorName(errorCode)}`,
    );
  }
}

/** The committed offsets of the partitions asked for (-1 when none), or every one. */
function fetchOffsets(state: GroupCoordinatorState, groupId: string, asked: string[]): string {
  const partitions =
    asked.length > 0
      ? asked.map(topicPartitionOf)
      : state.offsets.offsetsOf(groupId).map(({ topic, partition }) => ({ topic, partition }));
  if (partitions.length === 0) return "no offsets";
  return partitions
    .map(({ topic, partition }) => {
      const committed = state.offsets.get({ groupId, topic, partition });
      return `${topic}-${partition}=${committed?.offset ?? -1}`;
    })
    .join(" ");
}

/** DeleteGroups as its handler runs it: only an Empty group, its offsets tombstoned first. */
function deleteGroup(state: GroupCoordinatorState, groupId: string, nowMs: number): number {
  const deletable = state.checkDeletable(groupId);
  if (deletable !== ErrorCode.NONE) return deletable;
  const tombstones: OffsetRecord[] = state.offsets
    .offsetsOf(groupId)
    .map(({ topic, partition }) => ({ key: { groupId, topic, partition }, value: null }));
  state.replayDurableOffsets(groupId, tombstones, nowMs);
  state.removeGroup(groupId);
  return ErrorCode.NONE;
}
