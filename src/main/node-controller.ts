/**
 * The controller side of a node (Kafka's ControllerServer): the quorum controller fed by the
 * metadata log through a RaftDriverAdapter, and the controller listener's router serving
 * ApiVersions, the Raft APIs and the controller APIs.
 */
import { registerApiVersions, RequestRouter } from "../broker/index.js";
import {
  QuorumController,
  RaftDriverAdapter,
  bootstrapChoiceFromRecords,
  controllerApiHandlers,
  type BootstrapOptions,
} from "../controller/index.js";
import { decodeMetadataRecord, DecodeError } from "../protocol/index.js";
import {
  BOOTSTRAP_METADATA_FILE,
  readBootstrapMetadata,
  type RaftDriver,
  type RaftListener,
} from "../raft/index.js";
import type { FileSystem } from "../ports/index.js";
import { MalformedFileError } from "../storage/index.js";
import type { NodeConfig } from "./config/node-config.js";
import { registerRaftApis } from "./controller-node-raft.js";
import { nodeAuthorizerOf } from "./node-security.js";
import { controllerSettingsOf } from "./node-settings.js";
import { NodeStartError, type NodeIdentity, type NodePorts } from "./node-types.js";

/** The quorum controller and the Raft listener that feeds it; the driver is attached later. */
export interface ControllerSide {
  readonly controller: QuorumController;
  /**
   * Passed to the RaftDriver as a listener before it starts; the adapter behind it holds back
   * leader changes until `attach`, then delivers the latest.
   */
  readonly raftListener: RaftListener;
  /** Connects the started driver, so that the controller can propose and snapshot. */
  attach(raft: RaftDriver): void;
}

/**
 * The feature levels a new cluster starts with: those `sluice format` wrote into the bootstrap
 * file of the metadata log dir, or, without the file (a node formatted by its first start), the
 * defaults, as Kafka's BootstrapDirectory. A file that cannot be read refuses the start.
 */
export async function readControllerBootstrap(
  fs: FileSystem,
  metadataLogDir: string,
): Promise<BootstrapOptions> {
  const where = `${metadataLogDir}/${BOOTSTRAP_METADATA_FILE}`;
  let values: Uint8Array[] | undefined;
  try {
    values = await readBootstrapMetadata(fs, metadataLogDir);
  } catch (error) {
    if (!(error instanceof MalformedFileError)) throw error;
    throw new NodeStartError(`${error.message}: format the node again`, { cause: error });
  }
  if (values === undefined) return {};
  let choice;
  try {
    choice = bootstrapChoiceFromRecords(values.map((value) => decodeMetadataRecord(value)));
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    throw new NodeStartError(`${where} holds a record that does not decode: ${error.message}`);
  }
  if (choice.kind === "invalid") throw new NodeStartError(`${where}: ${choice.message}`);
  return choice.options;
}

/**
 * Builds the quorum controller of `identity`'s cluster, inactive until Raft elects it; on an
 * empty metadata log it writes `bootstrap`.
 */
export function createControllerSide(
  ports: NodePorts,
  config: NodeConfig,
  identity: NodeIdentity,
  bootstrap: BootstrapOptions,
): ControllerSide {
  const adapter = new RaftDriverAdapter(identity.nodeId);
  const controller = new QuorumController({
    raft: adapter,
    settings: { ...controllerSettingsOf(config, identity.clusterId), bootstrap },
    clock: ports.clock,
    timers: ports.timers,
    random: ports.random,
    logger: ports.logger.child({ component: "controller" }),
    metrics: ports.metrics,
    crypto: ports.crypto,
  });
  // The adapter holds back a leader change that comes before `attach` (a single voter elects
  // itself while its driver starts), so it is the Raft listener as it stands.
  const raftListener: RaftListener = adapter;
  const attach = (raft: RaftDriver): void => {
    adapter.attach({
      get leaderId() {
        return raft.status.leaderId;
      },
      get epoch() {
        return raft.status.epoch;
      },
      voterIds: () => raft.status.voterIds,
      propose: (records) => raft.propose(records),
      createSnapshot: (request) => raft.createSnapshot(request),
    });
  };
  return { controller, raftListener, attach };
}

/**
 * The controller listener's router: ApiVersions, the Raft APIs of `raft`, and, on a node with
 * the controller role, the controller APIs of `controller`.
 */
export function controllerRouter(
  ports: NodePorts,
  config: NodeConfig,
  raft: () => RaftDriver,
  controller: QuorumController,
): RequestRouter {
  const router = new RequestRouter({
    logger: ports.logger,
    authorizer: nodeAuthorizerOf(config, () => controller.committedImage, hasLoadedLog(raft)),
  });
  registerApiVersions(router);
  registerRaftApis(router, raft);
  for (const handler of controllerApiHandlers(controller)) router.register(handler);
  return router;
}

/**
 * Whether this node has handed its listeners the metadata log up to the high watermark, as
 * Kafka's MetadataLoader catches up before the authorizer's initial load completes. Once true,
 * it stays true.
 */
export function hasLoadedLog(raft: () => RaftDriver): () => boolean {
  let hasLoaded = false;
  return () => {
    if (hasLoaded) return true;
    const { highWatermark, deliveredEndOffset } = raft().status;
    hasLoaded = highWatermark !== null && deliveredEndOffset >= highWatermark;
    return hasLoaded;
  };
}
