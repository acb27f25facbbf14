/**
 * A quorum controller on the fake Raft layer, manual time and a seeded random source, with the
 * steps the tests repeat: activate it, run an API request through commit, register brokers.
 */
import type { Uuid } from "../../common/index.js";
import type { Crypto, HashAlgorithm } from "../../ports/index.js";
import { ByteReader, ByteWriter, apiCodec } from "../../protocol/index.js";
import type { BrokerRegistrationResponse, BrokerHeartbeatResponse } from "../../protocol/index.js";
import type { ControllerApi } from "../apis/index.js";
import { brokerHeartbeatApi, brokerRegistrationApi, requestForVersion } from "../apis/index.js";
import { METADATA_VERSION_LATEST, METADATA_VERSION_MIN } from "../features/index.js";
import { QuorumController } from "../quorum-controller.driver.js";
import { defaultQuorumControllerSettings } from "./controller-settings.js";
import type { QuorumControllerSettings } from "./controller-settings.js";
import {
  FakeControllerRaft,
  ManualTimers,
  RecordingLogger,
  RecordingMetrics,
  SequenceRandom,
  flushPromises,
} from "./quorum.test-support.js";

export const CLUSTER_ID = "sluice-test-cluster-0001";

/**
 * The Crypto port for controller tests: deterministic bytes as long as each hash's, folded from
 * the input. It stands in for the platform's hashes; it secures nothing.
 */
const TEST_CRYPTO: Crypto = {
  hash: (algorithm, data) => fold(algorithm, [data]),
  hmac: (algorithm, key, data) => fold(algorithm, [key, data]),
  pbkdf2: (algorithm, password, salt) => fold(algorithm, [password, salt]),
  equalInConstantTime: (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]),
};

function fold(algorithm: HashAlgorithm, inputs: readonly Uint8Array[]): Uint8Array {
  const result = new Uint8Array(algorithm === "sha256" ? 32 : 64);
  let at = 0;
  for (const input of inputs) {
    for (const byte of input) {
      const index = at++ % result.length;
      result[index] = (result[index] ?? 0) ^ byte;
    }
  }
  return result;
}

/** Everything one test controller is made of. */
export interface Harness {
  readonly raft: FakeControllerRaft;
  readonly timers: ManualTimers;
  readonly logger: RecordingLogger;
  readonly metrics: RecordingMetrics;
  readonly controller: QuorumController;
}

/** A controller of node 1 that is not yet elected. */
export function newHarness(settings: Partial<QuorumControllerSettings> = {}): Harness {
  const raft = new FakeControllerRaft(1);
  const timers = new ManualTimers();
  const logger = new RecordingLogger();
  const metrics = new RecordingMetrics();
  const controller = new QuorumController({
    raft,
    settings: { ...defaultQuorumControllerSettings(CLUSTER_ID), ...settings },
    clock: timers,
    timers,
    random: new SequenceRandom(42),
    logger,
    metrics,
    crypto: TEST_CRYPTO,
  });
  return { raft, timers, logger, metrics, controller };
}

/** Elects node 1 and commits its claim and bootstrap batches. */
export async function activate(harness: Harness, epoch = 1): Promise<void> {
  harness.raft.elect(1, epoch);
  for (let round = 0; round < 3 && !harness.controller.isActive; round++) {
    await flushPromises();
    harness.raft.commit();
    await flushPromises();
  }
}

/** A whole request body of `version`, made so by a codec round trip of `input`. */
export function requestBody(
  apiKey: number,
  version: number,
  input: object,
): Record<string, unknown> {
  const codec = apiCodec(apiKey);
  if (codec === undefined) throw new RangeError(`no API ${apiKey}`);
  const writer = new ByteWriter();
  codec.encodeRequest(version, requestForVersion(apiKey, version, input), writer);
  const bytes = writer.finish();
  return codec.decodeRequest(version, new ByteReader(bytes)) as Record<string, unknown>;
}

/** Sends a request to the controller without committing. */
export function send(
  harness: Harness,
  api: ControllerApi,
  version: number,
  input: object,
): Promise<object> {
  const header = {
    apiKey: api.apiKey,
    apiVersion: version,
    correlationId: 1,
    clientId: "test",
    taggedFields: [],
  };
  const body = requestBody(api.apiKey, version, input);
  return api.handle(harness.controller, { header, body, listenerName: "CONTROLLER" });
}

/** Sends a request, commits what it proposes, and returns its response. */
export async function call<Response>(
  harness: Harness,
  api: ControllerApi,
  version: number,
  input: object,
): Promise<Response> {
  const response = send(harness, api, version, input);
  await flushPromises();
  harness.raft.commit();
  await flushPromises();
  return (await response) as Response;
}

/** A test Uuid ending in `n`. */
export function uuid(n: number): Uuid {
  return `a${n.toString(16).padStart(31, "0")}` as Uuid;
}

/** Registers broker `id` and heartbeats it until it is unfenced; returns its epoch. */
export async function registerUnfencedBroker(harness: Harness, id: number): Promise<number> {
  const registration = await call<BrokerRegistrationResponse>(
    harness,
    brokerRegistrationApi,
    3,
    brokerRegistrationInput(id),
  );
  const brokerEpoch = registration.brokerEpoch;
  await heartbeat(harness, id, brokerEpoch);
  return brokerEpoch;
}

/** The BrokerRegistration request (version 3) of broker `id`. */
export function brokerRegistrationInput(id: number): object {
  return {
    brokerId: id,
    clusterId: CLUSTER_ID,
    incarnationId: uuid(100 + id),
    listeners: [{ name: "PLAINTEXT", host: `broker${id}`, port: 9092, securityProtocol: 0 }],
    features: [
      {
        name: "metadata.version",
        minSupportedVersion: METADATA_VERSION_MIN,
        maxSupportedVersion: METADATA_VERSION_LATEST,
      },
    ],
    rack: null,
    logDirs: [uuid(200 + id)],
  };
}

/** One heartbeat of a broker that has read the whole log. */
export function heartbeat(
  harness: Harness,
  id: number,
  brokerEpoch: number,
): Promise<BrokerHeartbeatResponse> {
  return call<BrokerHeartbeatResponse>(harness, brokerHeartbeatApi, 1, {
    brokerId: id,
    brokerEpoch,
    currentMetadataOffset: harness.controller.committedImage.provenance.lastContainedOffset,
    wantFence: false,
    wantShutDown: false,
    offlineLogDirs: [],
  });
}
