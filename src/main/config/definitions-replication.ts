/**
 * Configuration keys of follower replication: the replica fetchers, the broker's rack and the
 * replica selector of consumers' fetches (KIP-392); and the rate windows of the replication
 * throttles and of the client quotas.
 * Defaults are Kafka's.
 */
import type { ConfigDefinition } from "./config-types.js";
import { RACK_AWARE_REPLICA_SELECTOR_CLASS } from "../../replication/index.js";
import { atLeast, oneOf } from "./validators.js";

export const replicationDefinitions: readonly ConfigDefinition[] = [
  {
    name: "num.replica.fetchers",
    type: "int",
    defaultValue: 1,
    validator: atLeast(1),
    importance: "high",
    description:
      "How many fetchers replicate from each leader broker; partitions spread over them.",
  },
  {
    name: "replica.fetch.max.bytes",
    type: "int",
    defaultValue: 1_048_576,
    validator: atLeast(0),
    importance: "medium",
    description:
      "The most bytes a follower asks for per partition; a larger first batch still comes whole.",
  },
  {
    name: "fetch.max.bytes",
    type: "int",
    defaultValue: 57_671_680,
    validator: atLeast(1024),
    importance: "medium",
    description:
      "The most bytes the broker returns for one fetch, whatever the request asks; a larger " +
      "first batch still comes whole.",
  },
  {
    name: "replica.fetch.response.max.bytes",
    type: "int",
    defaultValue: 10_485_760,
    validator: atLeast(0),
    importance: "medium",
    description: "The most bytes a follower asks for in one fetch response.",
  },
  {
    name: "replica.fetch.wait.max.ms",
    type: "int",
    defaultValue: 500,
    validator: atLeast(0),
    importance: "medium",
    description:
      "How long a leader holds a follower's fetch for new data; below replica.lag.time.max.ms.",
  },
  {
    name: "replica.fetch.min.bytes",
    type: "int",
    defaultValue: 1,
    validator: atLeast(0),
    importance: "medium",
    description: "How many bytes a follower's fetch waits for before the leader answers.",
  },
  {
    name: "replica.fetch.backoff.ms",
    type: "int",
    defaultValue: 1000,
    validator: atLeast(0),
    importance: "medium",
    description: "How long a follower waits after a failed fetch of a partition before the next.",
  },
  {
    name: "replica.socket.timeout.ms",
    type: "int",
    defaultValue: 30_000,
    validator: atLeast(1),
    importance: "high",
    description:
      "How long a follower waits for a leader's answer beyond replica.fetch.wait.max.ms.",
  },
  {
    name: "replication.quota.window.num",
    type: "int",
    defaultValue: 11,
    validator: atLeast(1),
    importance: "low",
    description:
      "How many samples the replication throttles (leader and follower) measure their rate over.",
  },
  {
    name: "replication.quota.window.size.seconds",
    type: "int",
    defaultValue: 1,
    validator: atLeast(1),
    importance: "low",
    description: "How long each sample of the replication throttles' rate lasts, in seconds.",
  },
  {
    name: "quota.window.num",
    type: "int",
    defaultValue: 11,
    validator: atLeast(1),
    importance: "low",
    description:
      "How many samples the client quotas (byte rates, request percentage) measure a rate over.",
  },
  {
    name: "quota.window.size.seconds",
    type: "int",
    defaultValue: 1,
    validator: atLeast(1),
    importance: "low",
    description: "How long each sample of the client quotas' rates lasts, in seconds.",
  },
  {
    name: "broker.rack",
    type: "string",
    defaultValue: null,
    importance: "medium",
    description:
      "The broker's rack, registered with the controller, which spreads replicas over racks.",
  },
  {
    name: "replica.selector.class",
    type: "class",
    defaultValue: null,
    validator: oneOf([RACK_AWARE_REPLICA_SELECTOR_CLASS]),
    importance: "medium",
    description:
      "Unset: consumers read from leaders. Kafka's RackAwareReplicaSelector, the only class " +
      "accepted: a leader sends a consumer with client.rack to an in-sync replica of its rack.",
  },
];
