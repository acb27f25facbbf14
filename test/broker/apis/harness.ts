/**
 * A broker's request path for the API tests: a real LogManager and ReplicaManager on the
 * simulator's file system, images built by replaying records through MetadataDelta, the
 * purgatories on the simulator's clock, and a router with every client API. `call` encodes a
 * request, routes it and decodes the response bytes, so each answer passes through the codec.
 */
import { brokerId } from "../../../src/common/index.js";
import {
  EMPTY_IMAGE,
  EMPTY_PROVENANCE,
  MetadataDelta,
  type MetadataImage,
} from "../../../src/metadata/index.js";
import {
  decodeRequest,
  decodeResponse,
  encodeRequest,
  type ApiCodec,
  type MessageInput,
  type MetadataRecord,
} from "../../../src/protocol/index.js";
import { registerBroker, unfenceBroker } from "../../../src/metadata/records.test-support.js";
import {
  defaultPartitionConfig,
  ReplicaManager,
  type DirectoryAssigner,
  type ReplicaSelector,
} from "../../../src/replication/index.js";
import {
  defaultLogConfig,
  defaultLogManagerConfig,
  LogManager,
} from "../../../src/storage/index.js";
import { MemoryMetricsSink } from "../../../sim/index.js";
import { TestRandom } from "../../../src/storage/manager/manager-doubles.test-support.js";
import {
  ClientQuotas,
  DelayedOperationPurgatory,
  FetchSessionCache,
  MetadataCache,
  PartitionWakeups,
  RequestRouter,
  registerApiVersions,
  registerClientApis,
  type Forwarder,
  type ForwardOutcome,
} from "../../../src/broker/index.js";
import { LogHarness } from "../../storage/log-harness.js";
import { RecordingSender, unreachableNetwork } from "../../replication/fixtures.js";

/** A forwarder that records what it was asked and answers as told. */
export class RecordingForwarder implements Forwarder {
  readonly sent: { apiKey: number; apiVersion: number; body: unknown }[] = [];
  answer: (apiKey: number, body: unknown) => ForwardOutcome<object> = () => ({
    kind: "failed",
    errorCode: 7,
    message: "no controller in this test",
  });

  forward<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    apiVersion: number,
    body: MessageInput<Request>,
  ): Promise<ForwardOutcome<Response>> {
    this.sent.push({ apiKey: api.apiKey, apiVersion, body });
    return Promise.resolve(this.answer(api.apiKey, body) as ForwardOutcome<Response>);
  }
}

/** Options of a test broker. */
export interface TestBrokerOptions {
  readonly seed: number;
  readonly logDirs?: string[];
  readonly autoCreateTopicsEnable?: boolean;
  readonly sessionSlots?: number;
  /** Where the replica manager reports replicas' log dirs (default: nowhere). */
  readonly directoryAssigner?: DirectoryAssigner;
  /** The simulated disk's size (default: unlimited, whose size the disk cannot tell). */
  readonly capacityBytes?: number;
  /** `replica.selector.class` as a built-in selector; unset, consumers read from leaders. */
  readonly replicaSelector?: ReplicaSelector;
  /** `fetch.max.bytes` (default Kafka's, 55 MiB). */
  readonly fetchMaxBytes?: number;
  /** Whether Produce and Fetch are throttled by the image's client quotas (Kafka's window). */
  readonly clientQuotas?: boolean;
}

/** Starts broker 1 (registered and unfenced) with every client API. */
export async function startBroker(options: TestBrokerOptions) {
  const harness = new LogHarness(
    options.seed,
    options.capacityBytes === undefined ? {} : { capacityBytes: options.capacityBytes },
  );
  const { clock, timers } = harness.node;
  const { logManager, replicaManager } = await startStorage(harness, options);
  const metadataCache = new MetadataCache({ clusterId: "test-cluster", random: new TestRandom() });
  const purgatories = {
    produce: new DelayedOperationPurgatory({ clock, timers }, { name: "Produce" }),
    fetch: new DelayedOperationPurgatory({ clock, timers }, { name: "Fetch" }),
  };
  const forwarder = new RecordingForwarder();
  const fetchSessions = new FetchSessionCache({
    random: new TestRandom(),
    ...(options.sessionSlots === undefined ? {} : { maxSlots: options.sessionSlots }),
  });
  const router = new RequestRouter({ logger: harness.logger });
  const quotas = new ClientQuotas(clock, () => metadataCache.image.clientQuotas, {
    samples: 11,
    windowMs: 1000,
  });
  const apis = registerClientApis(router, {
    config: {
      brokerId: 1,
      autoCreateTopicsEnable: options.autoCreateTopicsEnable ?? false,
      numPartitions: 3,
      defaultReplicationFactor: 1,
      requestTimeoutMs: 30_000,
      fetchMaxBytes: options.fetchMaxBytes ?? 57_671_680,
      staticConfig: {},
    },
    metadataCache,
    replicaManager,
    logManager,
    purgatories,
    wakeups: new PartitionWakeups(purgatories),
    fetchSessions,
    forwarder,
    logger: harness.logger,
    ...(options.clientQuotas === true ? { quotas } : {}),
  });
  registerApiVersions(router);
  let image: MetadataImage = EMPTY_IMAGE;
  const publish = async (records: MetadataRecord[]) => {
    const delta = new MetadataDelta(image);
    delta.replayAll(records);
    image = delta.apply(EMPTY_PROVENANCE);
    metadataCache.onMetadataUpdate(delta, image);
    replicaManager.onMetadataUpdate(delta, image, {
      kind: "snapshot",
      provenance: image.provenance,
    });
    await harness.run(replicaManager.whenMetadataApplied());
  };
  await publish([registerBroker(1, 10), unfenceBroker(1, 10)]);
  return {
    harness,
    logManager,
    replicaManager,
    metadataCache,
    purgatories,
    forwarder,
    fetchSessions,
    router,
    apis,
    publish,
    ...requestPath(router, harness),
  };
}

/** Sends requests through the router and decodes the answers. */
function requestPath(router: RequestRouter, harness: LogHarness) {
  const { clock } = harness.node;
  let correlationId = 0;
  /** Starts a request; the promise settles as the simulator runs. */
  const send = (apiKey: number, apiVersion: number, body: object) => {
    const header = { apiKey, apiVersion, correlationId: ++correlationId, clientId: "test" };
    const frame = join(encodeRequest(header, body)).subarray(4);
    const decoded = decodeRequest(frame);
    if (decoded.kind !== "request") throw new Error(`request does not decode: ${decoded.kind}`);
    return router.route({
      header: decoded.header,
      body: decoded.body as Record<string, unknown>,
      connection: {
        connectionId: "c1",
        listenerName: "PLAINTEXT",
        securityProtocol: "PLAINTEXT",
        principal: { principalType: "User", name: "ANONYMOUS" },
        remoteHost: "127.0.0.1",
        remotePort: 50000,
        clientSoftwareName: undefined,
        clientSoftwareVersion: undefined,
      },
      nowMs: clock.nowMs(),
      requestSizeBytes: frame.length,
    });
  };
  /** Decodes a routed response, or says it is none or a close. */
  const bodyOf = (
    routed: Awaited<ReturnType<typeof send>>,
    apiKey: number,
    apiVersion: number,
  ): Record<string, unknown> | "none" | "close" => {
    if (routed.kind !== "frame") return routed.kind;
    const decoded = decodeResponse(join(routed.chunks).subarray(4), apiKey, apiVersion);
    if (decoded.kind !== "response") throw decoded.error;
    return decoded.body;
  };
  /** Sends a request and runs the simulator until it is answered. */
  const call = async (apiKey: number, apiVersion: number, body: object) =>
    bodyOf(await harness.run(send(apiKey, apiVersion, body)), apiKey, apiVersion);
  return { send, bodyOf, call };
}

/** Joins chunks into one buffer. */
export function join(chunks: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let position = 0;
  for (const chunk of chunks) {
    joined.set(chunk, position);
    position += chunk.length;
  }
  return joined;
}

/** Reads a path of properties and indexes from a decoded body. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const step of path) current = (current as Record<string | number, unknown>)[step];
  return current;
}

/** The log manager and replica manager of broker 1 on the simulated disk. */
async function startStorage(harness: LogHarness, options: TestBrokerOptions) {
  const { logDirs, directoryAssigner } = options;
  const { clock } = harness.node;
  // As the node assembly does: the log manager opens logs with the replica manager's topic
  // configs, bound late because the replica manager needs the log manager first.
  let replicaManager: ReplicaManager | undefined;
  const logManager = await harness.run(
    LogManager.start({
      fileSystem: harness.fs,
      clock,
      random: new TestRandom(),
      logger: harness.logger,
      metrics: new MemoryMetricsSink(),
      config: defaultLogManagerConfig(logDirs ?? ["/data/a"]),
      identity: { clusterId: "Dz1DTnH3T0WL3dxJgZCkvg", nodeId: brokerId(1) },
      formatUnformatted: true,
      logConfigOf: (topic) => replicaManager?.logConfigOf(topic) ?? defaultLogConfig,
    }),
  );
  replicaManager = new ReplicaManager({
    brokerId: brokerId(1),
    brokerEpoch: () => 10,
    logManager,
    alterPartitionSender: new RecordingSender(),
    clock,
    logger: harness.logger,
    defaults: defaultPartitionConfig(defaultLogConfig),
    replicaLagTimeMaxMs: 30_000,
    replicaSelector: options.replicaSelector,
    timers: harness.node.timers,
    network: unreachableNetwork(),
    ...(directoryAssigner === undefined ? {} : { directoryAssigner }),
  });
  return { logManager, replicaManager };
}
