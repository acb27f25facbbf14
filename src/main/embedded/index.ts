// The public surface of the embedded cluster, and the entry point of the package ("sluice"):
// a cluster in the calling process for the tests of applications that use Kafka.
export { startCluster, type ClusterNodeInfo, type EmbeddedCluster } from "./cluster.js";
export type {
  ClusterOptions,
  ConfigSetting,
  ConfigSettings,
  NodeRole,
  TopicDefaults,
} from "./cluster-settings.js";
export {
  ClusterAdmin,
  ClusterAdminError,
  type NewTopic,
  type PartitionDescription,
  type TopicDescription,
} from "./cluster-admin.js";
