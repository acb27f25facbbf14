/**
 * The checkers, after Jepsen's queue and Kafka workloads: they read only the history and the
 * final read-back of each partition and name every anomaly found.
 *
 * - lost: a send acknowledged (ok) whose value the read-back does not hold;
 * - unseen: a send acknowledged that no consumer polled;
 * - duplicate: a value stored at two offsets, or polled at two offsets;
 * - inconsistent-offset: two different values at one offset (acknowledged, polled or stored);
 * - poll-skip: a consumer read offset a, then b > a + 1 of the same partition with records
 *   stored between them, without a new assignment in between;
 * - nonmonotonic-poll: a consumer read offset a, then b <= a, without a new assignment;
 * - nonmonotonic-send: a producer's acknowledgements whose offsets do not increase;
 * - commit-backwards: a partition's committed offset lower than one committed before.
 */
import type { HistoryEvent } from "./history.js";
import type { StoredRecord } from "./read-back.js";

export type AnomalyKind =
  | "lost"
  | "unseen"
  | "duplicate"
  | "inconsistent-offset"
  | "poll-skip"
  | "nonmonotonic-poll"
  | "nonmonotonic-send"
  | "commit-backwards"
  | "replica-divergence"
  | "harness";

export interface Anomaly {
  readonly kind: AnomalyKind;
  readonly partition: number;
  readonly detail: string;
}

const key = (partition: number, offset: number) => `${partition}@${offset}`;

/** Every anomaly of the history against the stored records of each partition. */
export function check(
  events: readonly HistoryEvent[],
  stored: ReadonlyMap<number, readonly StoredRecord[]>,
): Anomaly[] {
  return [
    ...checkSends(events, stored),
    ...checkOffsets(events, stored),
    ...checkPolls(events, stored),
    ...checkCommits(events),
  ];
}

const sendsOk = (events: readonly HistoryEvent[]) =>
  events.filter((e) => e.f === "send" && e.type === "ok" && e.partition !== undefined);
const polls = (events: readonly HistoryEvent[]) =>
  events.filter((e) => e.f === "poll" && e.type === "ok" && e.partition !== undefined);

function checkSends(
  events: readonly HistoryEvent[],
  stored: ReadonlyMap<number, readonly StoredRecord[]>,
): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const storedValues = new Set<string>();
  for (const records of stored.values()) for (const r of records) storedValues.add(r.value);
  const polled = new Set(polls(events).map((e) => e.value));
  const lastAcked = new Map<string, number>();
  for (const send of sendsOk(events)) {
    const partition = send.partition ?? -1;
    const value = send.value ?? "";
    if (!storedValues.has(value)) {
      anomalies.push({
        kind: "lost",
        partition,
        detail: `${value} acknowledged at ${send.offset}`,
      });
    }
    if (!polled.has(value)) {
      anomalies.push({
        kind: "unseen",
        partition,
        detail: `${value} acknowledged at ${send.offset}`,
      });
    }
    const previous = lastAcked.get(send.process) ?? -1;
    const offset = send.offset ?? -1;
    if (offset <= previous) {
      const detail = `${send.process}: ${value} acknowledged at ${offset} after ${previous}`;
      anomalies.push({ kind: "nonmonotonic-send", partition, detail });
    }
    lastAcked.set(send.process, offset);
  }
  return anomalies;
}

function checkOffsets(
  events: readonly HistoryEvent[],
  stored: ReadonlyMap<number, readonly StoredRecord[]>,
): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const valuesAt = new Map<string, Set<string>>();
  const offsetsOf = new Map<string, Set<number>>();
  const note = (partition: number, offset: number, value: string, fromRead: boolean) => {
    const at = key(partition, offset);
    valuesAt.set(at, (valuesAt.get(at) ?? new Set()).add(value));
    if (fromRead) offsetsOf.set(value, (offsetsOf.get(value) ?? new Set()).add(offset));
  };
  for (const [partition, records] of stored) {
    for (const r of records) note(partition, r.offset, r.value, true);
  }
  for (const e of [...sendsOk(events), ...polls(events)]) {
    note(e.partition ?? -1, e.offset ?? -1, e.value ?? "", e.f === "poll");
  }
  for (const [at, values] of valuesAt) {
    if (values.size > 1) {
      const [partition] = at.split("@");
      const detail = `offset ${at} holds ${[...values].join(", ")}`;
      anomalies.push({ kind: "inconsistent-offset", partition: Number(partition), detail });
    }
  }
  for (const [value, offsets] of offsetsOf) {
    if (offsets.size > 1) {
      const partition = Number(value.split("-")[0]);
      const detail = `${value} at offsets ${[...offsets].join(", ")}`;
      anomalies.push({ kind: "duplicate", partition, detail });
    }
  }
  return anomalies;
}

function checkPolls(
  events: readonly HistoryEvent[],
  stored: ReadonlyMap<number, readonly StoredRecord[]>,
): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const last = new Map<string, number>();
  for (const e of events) {
    if (e.f === "assign") {
      for (const at of [...last.keys()]) if (at.startsWith(`${e.process}/`)) last.delete(at);
      continue;
    }
    if (e.f !== "poll" || e.type !== "ok" || e.partition === undefined) continue;
    const at = `${e.process}/${e.partition}`;
    const offset = e.offset ?? -1;
    const previous = last.get(at);
    last.set(at, offset);
    if (previous === undefined) continue;
    if (offset <= previous) {
      const detail = `${e.process} read ${offset} after ${previous}`;
      anomalies.push({ kind: "nonmonotonic-poll", partition: e.partition, detail });
    } else if (offset > previous + 1) {
      const between = (stored.get(e.partition) ?? []).filter(
        (r) => r.offset > previous && r.offset < offset,
      );
      if (between.length > 0) {
        const detail = `${e.process} read ${offset} after ${previous}, skipping ${between.length}`;
        anomalies.push({ kind: "poll-skip", partition: e.partition, detail });
      }
    }
  }
  return anomalies;
}

function checkCommits(events: readonly HistoryEvent[]): Anomaly[] {
  const anomalies: Anomaly[] = [];
  const committed = new Map<number, { offset: number; process: string }>();
  for (const e of events) {
    if (e.f !== "commit" || e.type !== "ok" || e.partition === undefined) continue;
    const offset = e.offset ?? -1;
    const previous = committed.get(e.partition);
    if (previous !== undefined && offset < previous.offset) {
      const detail =
        `${e.process} committed ${offset} after ` +
        `${previous.process} committed ${previous.offset}`;
      anomalies.push({ kind: "commit-backwards", partition: e.partition, detail });
    }
    committed.set(e.partition, { offset, process: e.process });
  }
  return anomalies;
}
