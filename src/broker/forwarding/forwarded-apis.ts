/**
 * The APIs a KRaft broker does not answer itself but forwards to the active controller, as
 * Kafka's KafkaApis does in KRaft mode (its forwardable API keys). DescribeConfigs is not among
 * them: Kafka's broker answers it from its own metadata image, and so does Sluice's. AlterConfigs
 * and IncrementalAlterConfigs are forwarded whole; Kafka keeps BROKER_LOGGER resources (log
 * levels of the broker process) local, which Sluice's handler must split off before forwarding.
 */

/** API keys forwarded to the controller, with Kafka's names. */
export const FORWARDED_API_KEYS: ReadonlyMap<number, string> = new Map([
  [19, "CreateTopics"],
  [20, "DeleteTopics"],
  [30, "CreateAcls"],
  [31, "DeleteAcls"],
  [33, "AlterConfigs"],
  [37, "CreatePartitions"],
  [38, "CreateDelegationToken"],
  [39, "RenewDelegationToken"],
  [40, "ExpireDelegationToken"],
  [43, "ElectLeaders"],
  [44, "IncrementalAlterConfigs"],
  [45, "AlterPartitionReassignments"],
  [46, "ListPartitionReassignments"],
  [49, "AlterClientQuotas"],
  [51, "AlterUserScramCredentials"],
  [55, "DescribeQuorum"],
  [57, "UpdateFeatures"],
]);

/** Whether a broker forwards API `apiKey` to the active controller. */
export function isForwardedToController(apiKey: number): boolean {
  return FORWARDED_API_KEYS.has(apiKey);
}
