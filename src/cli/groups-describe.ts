/**
 * `sluice groups describe`: as kafka-consumer-groups.sh --describe, a row per partition the group
 * committed an offset for or has assigned (its committed offset, the log end offset, the lag and
 * the member that owns it), or with `--members` a row per member, or with `--state` the group's
 * coordinator, assignor, state and member count.
 */
import { EXIT, type CommandOutput } from "./command-options.js";
import type { ClusterSession } from "./cluster-session.js";
import { printRows, type AdminOptions, type Cell } from "./admin-command.js";
import {
  listedGroups,
  requiredGroups,
  allCommittedOffsets,
  describeGroup,
  LATEST_TIMESTAMP,
  offsetsAt,
  partitionKey,
  type GroupDescription,
  type GroupMember,
} from "./groups-state.js";

const OFFSET_HEADERS = [
  "GROUP",
  "TOPIC",
  "PARTITION",
  "CURRENT-OFFSET",
  "LOG-END-OFFSET",
  "LAG",
  "CONSUMER-ID",
  "HOST",
  "CLIENT-ID",
];
const MEMBER_HEADERS = [
  "GROUP",
  "CONSUMER-ID",
  "GROUP-INSTANCE-ID",
  "HOST",
  "CLIENT-ID",
  "#PARTITIONS",
];
const STATE_HEADERS = ["GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"];

const REBALANCING = new Set([
  "PreparingRebalance",
  "CompletingRebalance",
  "Assigning",
  "Reconciling",
]);

type Row = Record<string, Cell>;

export async function describeGroups(
  session: ClusterSession,
  options: AdminOptions,
  io: CommandOutput,
): Promise<number> {
  const groupIds = options.booleans.has("--all-groups")
    ? (await listedGroups(session)).map((group) => group.groupId)
    : requiredGroups(options);
  const rows: Row[] = [];
  let missing = 0;
  for (const groupId of groupIds) {
    const group = await describeGroup(session, groupId);
    const groupRows = await rowsOf(session, group, options);
    if (group.state === "Dead" && groupRows.length === 0) {
      io.error(
        `Error: Consumer group '${groupId}' does not exist (sluice groups list shows the groups).`,
      );
      missing += 1;
      continue;
    }
    if (group.state === "Empty") io.error(`Consumer group '${groupId}' has no active members.`);
    if (REBALANCING.has(group.state))
      io.error(`Warning: Consumer group '${groupId}' is rebalancing.`);
    rows.push(...groupRows);
  }
  const headers = options.booleans.has("--members")
    ? MEMBER_HEADERS
    : options.booleans.has("--state-only")
      ? STATE_HEADERS
      : OFFSET_HEADERS;
  if (rows.length > 0 || options.booleans.has("--json")) printRows(io, options, headers, rows);
  return missing > 0 ? EXIT.failed : EXIT.ok;
}

async function rowsOf(
  session: ClusterSession,
  group: GroupDescription,
  options: AdminOptions,
): Promise<Row[]> {
  if (options.booleans.has("--members")) {
    return group.members.map((member) => ({
      GROUP: group.groupId,
      "CONSUMER-ID": member.memberId,
      "GROUP-INSTANCE-ID": member.groupInstanceId,
      HOST: member.clientHost,
      "CLIENT-ID": member.clientId,
      "#PARTITIONS": member.assignment.length,
    }));
  }
  if (options.booleans.has("--state-only")) {
    if (group.state === "Dead") return [];
    const metadata = await session.metadata([]);
    const broker = metadata.brokers.find((entry) => entry.nodeId === group.coordinator);
    const address = broker === undefined ? "" : `${broker.host}:${broker.port} `;
    return [
      {
        GROUP: group.groupId,
        "COORDINATOR (ID)": `${address}(${group.coordinator})`,
        "ASSIGNMENT-STRATEGY": group.protocol,
        STATE: group.state,
        "#MEMBERS": group.members.length,
      },
    ];
  }
  return offsetRows(session, group);
}

/** A row per partition committed or assigned, then one per member without partitions. */
async function offsetRows(session: ClusterSession, group: GroupDescription): Promise<Row[]> {
  const committed = await allCommittedOffsets(session, group);
  const owners = new Map<string, GroupMember>();
  const partitions = new Map<string, { topic: string; partition: number }>();
  for (const member of group.members) {
    for (const entry of member.assignment) {
      owners.set(partitionKey(entry.topic, entry.partition), member);
      partitions.set(partitionKey(entry.topic, entry.partition), entry);
    }
  }
  for (const [key, entry] of committed) partitions.set(key, entry);
  const sorted = [...partitions.values()].sort(
    (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
  const logEnds = await offsetsAt(session, sorted, LATEST_TIMESTAMP);
  const rows: Row[] = sorted.map(({ topic, partition }) => {
    const key = partitionKey(topic, partition);
    const current = committed.get(key)?.offset;
    const logEnd = logEnds.get(key);
    const owner = owners.get(key);
    return {
      GROUP: group.groupId,
      TOPIC: topic,
      PARTITION: partition,
      "CURRENT-OFFSET": current ?? null,
      "LOG-END-OFFSET": logEnd ?? null,
      LAG: current !== undefined && logEnd !== undefined ? Math.max(0, logEnd - current) : null,
      "CONSUMER-ID": owner?.memberId ?? null,
      HOST: owner?.clientHost ?? null,
      "CLIENT-ID": owner?.clientId ?? null,
    };
  });
  for (const member of group.members) {
    if (member.assignment.length > 0) continue;
    rows.push({
      GROUP: group.groupId,
      TOPIC: null,
      PARTITION: null,
      "CURRENT-OFFSET": null,
      "LOG-END-OFFSET": null,
      LAG: null,
      "CONSUMER-ID": member.memberId,
      HOST: member.clientHost,
      "CLIENT-ID": member.clientId,
    });
  }
  return rows;
}
