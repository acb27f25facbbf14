/**
 * Metadata image costs on a 100,000-partition image (1,000 topics of 100 partitions, 3
 * replicas): how many PartitionChangeRecords a delta applies per second, and how long building
 * the image from its snapshot records takes.
 */
import { performance } from "node:perf_hooks";
import {
  MetadataRecordType,
  decodeMetadataRecord,
  encodeMetadataRecord,
} from "../src/protocol/index.js";
import type { MetadataRecord } from "../src/protocol/index.js";
import {
  EMPTY_IMAGE,
  MetadataDelta,
  imageFromRecords,
  imageToRecords,
} from "../src/metadata/index.js";
import type { MetadataImage } from "../src/metadata/index.js";
import type { Benchmark, BenchmarkResult } from "./run.js";

const TOPICS = 1000;
const PARTITIONS_PER_TOPIC = 100;
const CHANGES_PER_DELTA = 1000;
const MIN_DURATION_MS = 500;

const topicId = (topic: number): string => (0x1000 + topic).toString(16).padStart(32, "a");

function whole(input: { type: number; data: object }): MetadataRecord {
  const version = input.type === MetadataRecordType.PartitionRecord ? 2 : 0;
  return decodeMetadataRecord(encodeMetadataRecord({ ...input, version } as never));
}

function bigImage(): MetadataImage {
  const delta = new MetadataDelta(EMPTY_IMAGE);
  const template = whole({
    type: MetadataRecordType.PartitionRecord,
    data: {
      topicId: topicId(0),
      partitionId: 0,
      replicas: [1, 2, 3],
      isr: [1, 2, 3],
      leader: 1,
      leaderEpoch: 0,
      partitionEpoch: 0,
    },
  });
  for (let topic = 0; topic < TOPICS; topic++) {
    delta.replay(
      whole({
        type: MetadataRecordType.TopicRecord,
        data: { name: `topic-${topic}`, topicId: topicId(topic) },
      }),
    );
    for (let partitionId = 0; partitionId < PARTITIONS_PER_TOPIC; partitionId++) {
      delta.replay({
        ...template,
        data: { ...template.data, topicId: topicId(topic), partitionId },
      } as MetadataRecord);
    }
  }
  return delta.apply({ lastContainedOffset: 0, lastContainedEpoch: 1 });
}

/** Deltas of CHANGES_PER_DELTA leader changes spread over the image, applied one after another. */
function applyRate(base: MetadataImage): BenchmarkResult {
  const changes: MetadataRecord[] = [];
  for (let index = 0; index < CHANGES_PER_DELTA; index++) {
    const data = {
      topicId: topicId((index * 7919) % TOPICS),
      partitionId: index % PARTITIONS_PER_TOPIC,
      leader: 1 + (index % 3),
      isr: [1, 2, 3],
    };
    changes.push(whole({ type: MetadataRecordType.PartitionChangeRecord, data }));
  }
  let image = base;
  let applied = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_DURATION_MS) {
    const delta = new MetadataDelta(image);
    for (const change of changes) delta.replay(change);
    image = delta.apply({
      lastContainedOffset: image.provenance.lastContainedOffset + changes.length,
      lastContainedEpoch: 1,
    });
    applied += changes.length;
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    label: `PartitionChangeRecord replay+apply, ${CHANGES_PER_DELTA}/delta`,
    value: Math.round(applied / seconds),
    unit: "records/s",
  };
}

function singleChangeTime(base: MetadataImage): BenchmarkResult {
  const change = whole({
    type: MetadataRecordType.PartitionChangeRecord,
    data: { topicId: topicId(500), partitionId: 42, isr: [1, 2] },
  });
  let rounds = 0;
  const start = performance.now();
  while (performance.now() - start < MIN_DURATION_MS) {
    const delta = new MetadataDelta(base);
    delta.replay(change);
    delta.apply({ lastContainedOffset: 1, lastContainedEpoch: 1 });
    rounds += 1;
  }
  const microseconds = ((performance.now() - start) * 1000) / rounds;
  return {
    label: "one PartitionChangeRecord -> new image",
    value: Number(microseconds.toFixed(2)),
    unit: "µs",
  };
}

function buildFromSnapshot(base: MetadataImage): BenchmarkResult[] {
  const records = imageToRecords(base);
  let rounds = 0;
  const start = performance.now();
  while (rounds < 3 || performance.now() - start < MIN_DURATION_MS) {
    imageFromRecords(records, base.provenance);
    rounds += 1;
  }
  const buildMs = (performance.now() - start) / rounds;
  const writeStart = performance.now();
  imageToRecords(base);
  const writeMs = performance.now() - writeStart;
  return [
    {
      label: "build 100,000-partition image from snapshot records",
      value: Math.round(buildMs),
      unit: "ms",
    },
    {
      label: "write 100,000-partition image as snapshot records",
      value: Math.round(writeMs),
      unit: "ms",
    },
  ];
}

/** The metadata benchmarks, for bench/run.ts. */
export const benchmarks: Benchmark[] = [
  {
    name: "metadata image, 100,000 partitions",
    async run() {
      const image = bigImage();
      return [applyRate(image), singleChangeTime(image), ...buildFromSnapshot(image)];
    },
  },
];
