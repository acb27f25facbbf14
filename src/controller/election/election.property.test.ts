import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import { MetadataRecordType } from "../../protocol/index.js";
import type { MetadataRecord } from "../../protocol/index.js";
import {
  applyOutput,
  broker,
  elrOn,
  imageOf,
  partition,
  partitionOf,
  topic,
  topicConfig,
  uuid,
  whole,
} from "../partition-control.test-support.js";
import { handleBrokerFenced, handleBrokerUnfenced } from "./broker-events.js";
import { ElectionTypeCode, electLeaders } from "./elect-leaders.js";
import type { ElectionReport } from "./election-report.js";

const FOO = uuid(1);
const BROKERS = [1, 2, 3, 4, 5];

type Event = { kind: "fence" | "unfence" | "preferred" | "unclean"; broker: number };

const arbitraryScenario = fc
  .record({
    fenced: fc.subarray(BROKERS),
    replicas: fc.shuffledSubarray(BROKERS, { minLength: 1, maxLength: 4 }),
    isrMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    elrMask: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    isElrEnabled: fc.boolean(),
    isUncleanEnabled: fc.boolean(),
    minIsr: fc.integer({ min: 1, max: 3 }),
    events: fc.array(
      fc.record({
        kind: fc.constantFrom("fence", "unfence", "preferred", "unclean"),
        broker: fc.constantFrom(...BROKERS),
      }),
      { maxLength: 12 },
    ),
  })
  .map((scenario) => {
    const isr = scenario.replicas.filter((_, index) => scenario.isrMask[index] === true);
    const active = isr.filter((replica) => !scenario.fenced.includes(replica));
    const outside = scenario.replicas.filter((replica) => !isr.includes(replica));
    const elr = scenario.isElrEnabled
      ? outside.filter((_, index) => scenario.elrMask[index] === true)
      : [];
    // Without ELR a partition never has an empty ISR; its last member stays.
    const fullIsr =
      isr.length === 0 && !scenario.isElrEnabled ? scenario.replicas.slice(0, 1) : isr;
    return { ...scenario, isr: fullIsr, elr, leader: active[0] ?? -1 };
  });

function registrationRecord(image: MetadataImage, event: Event): MetadataRecord | undefined {
  const registration = image.cluster.brokers.get(event.broker as BrokerId);
  if (registration === undefined) return undefined;
  const data = { id: event.broker, epoch: registration.epoch };
  if (event.kind === "fence" && !registration.isFenced) {
    return whole({ type: MetadataRecordType.FenceBrokerRecord, data });
  }
  if (event.kind === "unfence" && registration.isFenced) {
    return whole({ type: MetadataRecordType.UnfenceBrokerRecord, data });
  }
  return undefined;
}

interface Step {
  readonly records: readonly MetadataRecord[];
  readonly elections: readonly ElectionReport[];
}

function step(image: MetadataImage, event: Event): Step {
  const id = event.broker as BrokerId;
  const registration = registrationRecord(image, event);
  if (event.kind === "fence") {
    if (registration === undefined) return { records: [], elections: [] };
    const changes = handleBrokerFenced(image, id);
    return { records: [...changes.records, registration], elections: changes.elections };
  }
  if (event.kind === "unfence") {
    if (registration === undefined) return { records: [], elections: [] };
    const changes = handleBrokerUnfenced(image, id);
    return { records: [registration, ...changes.records], elections: changes.elections };
  }
  const electionType =
    event.kind === "preferred" ? ElectionTypeCode.PREFERRED : ElectionTypeCode.UNCLEAN;
  const request = {
    electionType,
    topicPartitions: [{ topic: "foo", partitions: [0] }],
    timeoutMs: 1,
  };
  return electLeaders(image, request);
}

function checkElection(
  report: ElectionReport,
  options: { isUncleanEnabled: boolean; isElrEnabled: boolean; kind: string },
): void {
  if (report.leader === -1) return;
  const chosen = report.candidates.find((candidate) => candidate.replica === report.leader);
  assert.ok(chosen, "the leader was a candidate");
  assert.equal(chosen.state, "active", "the leader was eligible");
  switch (report.outcome) {
    case "isr":
    case "preferred":
      return assert.ok(chosen.isInIsr, "a clean leader comes from the ISR");
    case "kept":
      return assert.ok(chosen.isInIsr || chosen.isInElr, "a kept leader is still a candidate");
    case "elr":
      return assert.ok(chosen.isInElr && options.isElrEnabled, "an ELR leader needs ELR");
    case "lastKnownLeader":
      return assert.ok(chosen.isLastKnownLeader && options.isElrEnabled);
    case "unclean":
      return assert.ok(
        options.isUncleanEnabled || options.kind === "unclean",
        "unclean needs consent",
      );
    case "none":
      return assert.fail("a leader with outcome none");
  }
}

test("leaders come eligible from the ISR or ELR, unclean only with consent; epochs grow", () => {
  fc.assert(
    fc.property(arbitraryScenario, (scenario) => {
      const setup = [
        ...BROKERS.map((id) => broker(id, { isFenced: scenario.fenced.includes(id) })),
        ...(scenario.isElrEnabled ? [elrOn()] : []),
        topic("foo", FOO),
        topicConfig("foo", "min.insync.replicas", String(scenario.minIsr)),
        topicConfig("foo", "unclean.leader.election.enable", String(scenario.isUncleanEnabled)),
        partition(FOO, 0, {
          replicas: scenario.replicas,
          isr: scenario.isr,
          elr: scenario.elr,
          leader: scenario.leader,
        }),
      ];
      let image = imageOf(setup);
      for (const event of scenario.events) {
        const before = partitionOf(image, FOO, 0);
        const { records, elections } = step(image, event);
        for (const report of elections) checkElection(report, { ...scenario, kind: event.kind });
        image = applyOutput(image, records);
        const after = partitionOf(image, FOO, 0);
        assert.ok(after.leaderEpoch >= before.leaderEpoch, "leader epochs only grow");
        assert.ok(after.partitionEpoch >= before.partitionEpoch, "partition epochs only grow");
        if (after.leader !== before.leader) assert.ok(after.leaderEpoch > before.leaderEpoch);
        if (after.leader !== -1) {
          const leader = image.cluster.brokers.get(after.leader);
          assert.equal(leader?.isFenced, false, "a fenced broker never leads");
          assert.ok(after.isr.includes(after.leader), "the leader is in the ISR");
        }
        if (!scenario.isElrEnabled)
          assert.ok(after.isr.length > 0, "without ELR the ISR never empties");
      }
    }),
    { seed: 20240611, numRuns: 400 },
  );
});
