// Type-checked against the packed package's declarations: the options, the handle and the admin
// calls a test writes, and `await using`.
import { startCluster, type ClusterOptions, type EmbeddedCluster } from "sluice";

const options: ClusterOptions = { nodes: 3, topicDefaults: { partitions: 2 } };

export async function useCluster(): Promise<string> {
  await using cluster: EmbeddedCluster = await startCluster(options);
  const topic = await cluster.admin.createTopic({ name: "typed", replicationFactor: 3 });
  const leader: number = topic.partitions[0]?.leader ?? -1;
  await cluster.stopNode(leader);
  cluster.partitionNode(1);
  cluster.slowLink(1, 2, 10);
  cluster.heal();
  cluster.failLogDir(2);
  await cluster.startNode(leader);
  return cluster.bootstrapServers;
}
