import { test } from "node:test";
import assert from "node:assert/strict";
import { DASHBOARD_HTML } from "./dashboard.js";

test("the dashboard script is valid JavaScript", () => {
  const script = /<script>([\s\S]*)<\/script>/.exec(DASHBOARD_HTML)?.[1];
  assert.ok(script !== undefined);
  // Compiling (not running) the script catches a syntax error the browser would hit.
  assert.doesNotThrow(() => new Function(script));
});

/** A stand-in for the few DOM calls the dashboard script makes. */
class FakeElement {
  textContent = "";
  className = "";
  hidden = false;
  value = "";
  dataset: Record<string, string> = {};
  children: FakeElement[] = [];
  get childElementCount(): number {
    return this.children.length;
  }
  get firstChild(): FakeElement | undefined {
    return this.children[0];
  }
  get lastChild(): FakeElement | undefined {
    return this.children.at(-1);
  }
  appendChild(child: FakeElement): void {
    this.children.push(child);
  }
  insertBefore(child: FakeElement, before: FakeElement | undefined): void {
    const at = before === undefined ? -1 : this.children.indexOf(before);
    if (at < 0) this.children.push(child);
    else this.children.splice(at, 0, child);
  }
  removeChild(child: FakeElement): void {
    this.children = this.children.filter((each) => each !== child);
  }
  replaceChildren(...children: FakeElement[]): void {
    this.children = children;
  }
  addEventListener(): void {}
}

type Drawn = (view: unknown) => void;

/** The dashboard script's `draw` and `addChange`, run over fake DOM elements. */
function dashboardScript(): {
  draw: Drawn;
  addChange: (change: unknown) => void;
  elements: Map<string, FakeElement>;
} {
  const script = /<script>([\s\S]*)<\/script>/.exec(DASHBOARD_HTML)?.[1];
  assert.ok(script !== undefined);
  const elements = new Map<string, FakeElement>();
  const document = {
    getElementById: (id: string) => elements.get(id) ?? elements.set(id, new FakeElement()).get(id),
    createElement: () => new FakeElement(),
  };
  const neverAnswers = () => new Promise(() => undefined);
  const parameters = ["document", "fetch", "setInterval", "Node", "EventSource"];
  const body = `${script}; return { draw, addChange };`;
  const made = new Function(...parameters, body)(
    document,
    neverAnswers,
    () => undefined,
    FakeElement,
    undefined,
  ) as { draw: Drawn; addChange: (change: unknown) => void };
  return { ...made, elements };
}

const drawnPartition = {
  partition: 0,
  leaderEpoch: 1,
  highWatermark: 3,
  logEndOffset: 5,
  elr: [],
  lastKnownElr: [],
};

/** A view as /v1/cluster writes it: a partition without a leader, and this broker's counts. */
const drawnView = {
  clusterId: "c",
  nodeId: 1,
  roles: ["broker"],
  controller: {
    leaderId: 1,
    leaderEpoch: 1,
    voters: [1, 2],
    highWatermark: 9,
    logEndOffset: 41,
    replicas: {
      voters: [
        { id: 1, logEndOffset: 9, lag: 0 },
        { id: 2, logEndOffset: 7, lag: 2 },
      ],
      observers: [{ id: 3, logEndOffset: -1, lag: -1 }],
    },
  },
  health: {
    status: "unavailable",
    reasons: ["1 partition offline (no leader)", "broker 2 fenced"],
  },
  replication: { offlinePartitions: 1, underReplicatedPartitions: 2, underMinIsrPartitions: 0 },
  replicaManager: {
    leaderCount: 1,
    partitionCount: 2,
    underReplicatedPartitions: 0,
    underMinIsrPartitionCount: 0,
    atMinIsrPartitionCount: 1,
    offlineReplicaCount: 0,
    reassigningPartitions: 0,
    isrShrinks: 4,
    isrExpands: 3,
    failedIsrUpdates: 2,
    maxLag: 9,
  },
  brokers: [
    {
      id: 1,
      epoch: 5,
      isFenced: false,
      inControlledShutdown: false,
      rack: null,
      endpoints: [],
      directories: ["AAAAAAAAAAAAAAAAAAAAAQ"],
    },
    {
      id: 2,
      epoch: 6,
      isFenced: true,
      inControlledShutdown: false,
      rack: "r",
      endpoints: [],
      directories: [],
    },
  ],
  topics: [
    {
      name: "__consumer_offsets",
      minInsyncReplicas: 1,
      partitions: [{ ...drawnPartition, leader: 1, replicas: [1], isr: [1] }],
    },
    {
      name: "orders",
      minInsyncReplicas: 2,
      partitions: [
        { ...drawnPartition, leader: 1, replicas: [1, 2], isr: [1, 2] },
        { ...drawnPartition, leader: null, replicas: [1, 2], isr: [2], elr: [1], followerLag: 4 },
      ],
    },
  ],
  logDirs: [{ path: "/data", isOnline: true }],
  groups: [
    {
      groupId: "g",
      groupType: "classic",
      state: "Empty",
      totalLag: 3,
      offsets: [{ topic: "orders", partition: 0, committedOffset: 0, highWatermark: 3, lag: 3 }],
    },
  ],
};

const texts = (element: FakeElement | undefined): string[] =>
  (element?.children ?? []).map((child) => child.textContent);

test("the dashboard draws health first, then quorum, brokers, topics, groups", () => {
  const { draw, elements } = dashboardScript();
  draw(drawnView);
  assert.equal(elements.get("health")?.className, "health unavailable");
  assert.deepEqual(texts(elements.get("health-reasons")), drawnView.health.reasons);
  const quorum = elements.get("quorum-rows")?.children ?? [];
  assert.deepEqual(quorum.map(texts), [
    ["1", "leader", "9", "0"],
    ["2", "voter", "7", "2"],
    ["3", "observer", "-", "-"],
  ]);
  const brokers = elements.get("brokers")?.children ?? [];
  assert.deepEqual(
    brokers.map((row) => [row.dataset["broker"], row.className, row.children[2]?.textContent]),
    [
      ["1", "", "active"],
      ["2", "bad", "fenced"],
    ],
  );
  // Internal topics are folded apart; the user's come first.
  assert.deepEqual(texts(elements.get("topics")?.children[0]), ["orders", "2", "2", "2", "1", "0"]);
  assert.equal(elements.get("internal-count")?.textContent, "1");
  const partitions = elements.get("partitions")?.children ?? [];
  assert.deepEqual(
    partitions.map((row) => [
      row.className,
      row.children[6]?.textContent,
      row.children[7]?.textContent,
    ]),
    [
      ["", "-", "ok"],
      ["bad", "1", "offline"],
    ],
  );
  assert.deepEqual(texts(elements.get("groups")?.children[1]), [
    "",
    "",
    "",
    "orders-0",
    "0",
    "3",
    "3",
  ]);
  assert.deepEqual(texts(elements.get("replication")?.children[0]), ["1", "2", "0"]);
  assert.equal(elements.get("replica-manager-section")?.hidden, false);
  draw({
    ...drawnView,
    replicaManager: null,
    controller: { ...drawnView.controller, replicas: null },
  });
  assert.equal(elements.get("replica-manager-section")?.hidden, true);
  assert.equal(elements.get("quorum-replicas")?.hidden, true);
  assert.match(elements.get("quorum-elsewhere")?.textContent ?? "", /only at the quorum leader/);
});

test("the dashboard lists metadata changes newest first and keeps at most 100", () => {
  const { addChange, elements } = dashboardScript();
  for (let offset = 0; offset < 105; offset++) {
    addChange({
      kind: "batch",
      baseOffset: offset,
      lastOffset: offset,
      epoch: 2,
      recordCount: 3,
      records: [{ type: "TopicRecord", summary: "topic <b>x</b>" }],
    });
  }
  const list = elements.get("changes")?.children ?? [];
  assert.equal(list.length, 100);
  assert.equal(list[0]?.children[0]?.textContent, "offsets 104-104 (epoch 2, 3 records)");
  assert.deepEqual(texts(list[0]?.children[1]), ["TopicRecord: topic <b>x</b>", "and 2 more"]);
});

test("a change shown already, resent after a reconnect, is not listed twice", () => {
  const { addChange, elements } = dashboardScript();
  const change = (baseOffset: number, lastOffset: number) => ({
    ...{ kind: "batch", baseOffset, lastOffset, epoch: 2, recordCount: 1 },
    records: [{ type: "TopicRecord", summary: "" }],
  });
  for (const [base, last] of [
    [0, 0],
    [1, 2],
    [0, 0],
    [1, 2],
    [3, 3],
  ] as const) {
    addChange(change(base, last));
  }
  const list = elements.get("changes")?.children ?? [];
  assert.deepEqual(
    list.map((item) => item.children[0]?.textContent),
    [
      "offsets 3-3 (epoch 2, 1 record)",
      "offsets 1-2 (epoch 2, 1 record)",
      "offsets 0-0 (epoch 2, 1 record)",
    ],
  );
});
