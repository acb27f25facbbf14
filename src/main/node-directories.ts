/**
 * The broker's reports of its log dirs to the controller after registration (KIP-858): each
 * replica's dir through AssignReplicasToDirs, and a failed dir in a heartbeat sent at once.
 */
import { ControllerDirectoryAssigner } from "../broker/index.js";
import type { MetadataImage } from "../metadata/index.js";
import { assignReplicasToDirs } from "../protocol/index.js";
import type { BrokerSideContext } from "./node-broker.js";
import type { NodePorts } from "./node-types.js";

/** The assigner the replica manager reports to, and the failure listener; `close` stops both. */
export function directoryReporting(
  ports: NodePorts,
  context: BrokerSideContext,
  options: {
    readonly brokerEpoch: () => number;
    readonly requestTimeoutMs: number;
    readonly image: () => MetadataImage;
  },
): { readonly assigner: ControllerDirectoryAssigner; close(): void } {
  const { identity, logManager, membership } = context;
  const assigner = new ControllerDirectoryAssigner(
    async (request) => {
      const result = await membership.channel.send(assignReplicasToDirs, request, {
        timeoutMs: options.requestTimeoutMs,
      });
      return result.kind === "response"
        ? { kind: "response", body: result.body }
        : { kind: "failed", errorCode: result.errorCode };
    },
    {
      brokerEpoch: () => ({ brokerId: identity.nodeId, brokerEpoch: options.brokerEpoch() }),
      timers: ports.timers,
      logger: ports.logger.child({ component: "directory-assigner" }),
      isStillHosted: ({ topicId, partitionIndex }) => {
        const partition = options.image().topics.byId.get(topicId)?.partitions.get(partitionIndex);
        return partition?.replicas.includes(identity.nodeId) ?? false;
      },
    },
  );
  const stopListening = logManager.onLogDirFailure(() => membership.lifecycle.logDirsChanged());
  const stopRecoveries = logManager.fullDirRecovery.subscribe(() =>
    membership.lifecycle.logDirsChanged(),
  );
  const close = (): void => {
    stopListening();
    stopRecoveries();
    assigner.close();
  };
  return { assigner, close };
}
