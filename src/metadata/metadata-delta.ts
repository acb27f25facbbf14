/**
 * A MetadataDelta collects the effect of metadata records on an image and applies them all at
 * once, as Kafka's MetadataDelta: build it on an image, replay committed records in log order,
 * then `apply` returns the next image. The base image is never changed; each part of the image
 * that no record touched is carried over by reference.
 *
 * Transaction markers (BeginTransaction, EndTransaction, AbortTransaction) have no effect here:
 * which records of a metadata transaction count is the loader's decision.
 */
import type { BrokerId } from "../common/index.js";
import { assertNever } from "../common/index.js";
import { MetadataRecordType } from "../protocol/index.js";
import type { MetadataRecord } from "../protocol/index.js";
import { ClientQuotasDelta } from "./client-quotas-delta.js";
import { ClusterDelta } from "./cluster-delta.js";
import { ConfigurationsDelta } from "./configurations-delta.js";
import { FeaturesDelta } from "./features-delta.js";
import type { MetadataImage, MetadataProvenance } from "./images.js";
import { localReplicaChanges } from "./local-replica-changes.js";
import type { LocalReplicaChanges } from "./local-replica-changes.js";
import { isMetadataReplayError } from "./metadata-replay-error.js";
import { SecurityDelta } from "./security-delta.js";
import { TopicsDelta } from "./topics-delta.js";

const T = MetadataRecordType;

/** Pending changes to a MetadataImage; each part is created on the first record that needs it. */
export class MetadataDelta {
  private featuresChanges: FeaturesDelta | undefined;
  private clusterChanges: ClusterDelta | undefined;
  private topicsChanges: TopicsDelta | undefined;
  private configsChanges: ConfigurationsDelta | undefined;
  private clientQuotasChanges: ClientQuotasDelta | undefined;
  private securityChanges: SecurityDelta | undefined;
  private nextProducerIdValue: number | undefined;

  constructor(readonly image: MetadataImage) {}

  /** Features changes, or undefined when no record touched features. */
  get featuresDelta(): FeaturesDelta | undefined {
    return this.featuresChanges;
  }

  /** Broker and controller changes, or undefined. */
  get clusterDelta(): ClusterDelta | undefined {
    return this.clusterChanges;
  }

  get topicsDelta(): TopicsDelta | undefined {
    return this.topicsChanges;
  }

  get configsDelta(): ConfigurationsDelta | undefined {
    return this.configsChanges;
  }

  get clientQuotasDelta(): ClientQuotasDelta | undefined {
    return this.clientQuotasChanges;
  }

  /** ACL, SCRAM and delegation token changes, or undefined. */
  get securityDelta(): SecurityDelta | undefined {
    return this.securityChanges;
  }

  /** The next producer id a ProducerIdsRecord set, or undefined. */
  get nextProducerIdChange(): number | undefined {
    return this.nextProducerIdValue;
  }

  /**
   * Replays one committed record. Throws MetadataReplayError, carrying `offset` when given, for a
   * record the image cannot take (see MetadataReplayError).
   */
  replay(record: MetadataRecord, offset?: number): void {
    try {
      this.dispatch(record);
    } catch (error) {
      if (isMetadataReplayError(error) && offset !== undefined) throw error.atOffset(offset);
      throw error;
    }
  }

  /** Replays records in order; `firstOffset` is the offset of the first, when known. */
  replayAll(records: Iterable<MetadataRecord>, firstOffset?: number): void {
    let offset = firstOffset;
    for (const record of records) {
      this.replay(record, offset);
      if (offset !== undefined) offset += 1;
    }
  }

  /**
   * Call after replaying a whole snapshot over the base image: whatever the snapshot did not
   * state (topics, brokers, configs, features, ...) is removed, as Kafka's finishSnapshot.
   */
  finishSnapshot(): void {
    this.features().finishSnapshot();
    this.cluster().finishSnapshot();
    this.topics().finishSnapshot();
    this.configs().finishSnapshot();
    this.clientQuotas().finishSnapshot();
    this.security().finishSnapshot();
    // A snapshot without a ProducerIdsRecord describes a cluster that never handed out a block.
    this.nextProducerIdValue ??= -1;
  }

  /** The next image: the base with every replayed change, stamped with `provenance`. */
  apply(provenance: MetadataProvenance): MetadataImage {
    const image = this.image;
    return {
      provenance,
      features: this.featuresChanges?.apply() ?? image.features,
      cluster: this.clusterChanges?.apply() ?? image.cluster,
      topics: this.topicsChanges?.apply() ?? image.topics,
      configs: this.configsChanges?.apply() ?? image.configs,
      clientQuotas: this.clientQuotasChanges?.apply() ?? image.clientQuotas,
      producerIds:
        this.nextProducerIdValue === undefined
          ? image.producerIds
          : { nextProducerId: this.nextProducerIdValue },
      security: this.securityChanges?.apply() ?? image.security,
    };
  }

  /** The partitions `brokerId` must delete, lead or follow because of this delta. */
  localChanges(brokerId: BrokerId): LocalReplicaChanges {
    if (this.topicsChanges === undefined) {
      return { deletes: [], leaders: [], electedLeaders: [], followers: [] };
    }
    return localReplicaChanges(this.topicsChanges, brokerId);
  }

  private dispatch(record: MetadataRecord): void {
    switch (record.type) {
      case T.RegisterBrokerRecord:
        return this.cluster().replayRegisterBroker(record.data);
      case T.UnregisterBrokerRecord:
        return this.cluster().replayUnregisterBroker(record.data);
      case T.RegisterControllerRecord:
        return this.cluster().replayRegisterController(record.data);
      case T.FenceBrokerRecord:
        return this.cluster().replayFenceBroker(record.data);
      case T.UnfenceBrokerRecord:
        return this.cluster().replayUnfenceBroker(record.data);
      case T.BrokerRegistrationChangeRecord:
        return this.cluster().replayBrokerRegistrationChange(record.data);
      case T.TopicRecord:
        return this.topics().replayTopic(record.data);
      case T.PartitionRecord:
        return this.topics().replayPartition(record.data);
      case T.PartitionChangeRecord:
        return this.topics().replayPartitionChange(record.data);
      case T.RemoveTopicRecord:
        return this.configs().replayRemoveTopic(this.topics().replayRemoveTopic(record.data));
      case T.ConfigRecord:
        return this.configs().replayConfig(record.data);
      case T.FeatureLevelRecord:
        return this.features().replayFeatureLevel(record.data);
      case T.ZkMigrationStateRecord:
        return this.features().replayZkMigrationState(record.data);
      case T.ProducerIdsRecord:
        this.nextProducerIdValue = record.data.nextProducerId;
        return;
      case T.ClientQuotaRecord:
        return this.clientQuotas().replayClientQuota(record.data);
      case T.AccessControlEntryRecord:
        return this.security().replayAccessControlEntry(record.data);
      case T.RemoveAccessControlEntryRecord:
        return this.security().replayRemoveAccessControlEntry(record.data);
      case T.UserScramCredentialRecord:
        return this.security().replayUserScramCredential(record.data);
      case T.RemoveUserScramCredentialRecord:
        return this.security().replayRemoveUserScramCredential(record.data);
      case T.DelegationTokenRecord:
        return this.security().replayDelegationToken(record.data);
      case T.RemoveDelegationTokenRecord:
        return this.security().replayRemoveDelegationToken(record.data);
      // These change nothing in the image; their offset still advances the provenance.
      case T.NoOpRecord:
      case T.BeginTransactionRecord:
      case T.EndTransactionRecord:
      case T.AbortTransactionRecord:
        return;
      default:
        return assertNever(record, "metadata record");
    }
  }

  private features(): FeaturesDelta {
    return (this.featuresChanges ??= new FeaturesDelta(this.image.features));
  }

  private cluster(): ClusterDelta {
    return (this.clusterChanges ??= new ClusterDelta(this.image.cluster));
  }

  private topics(): TopicsDelta {
    return (this.topicsChanges ??= new TopicsDelta(this.image.topics));
  }

  private configs(): ConfigurationsDelta {
    return (this.configsChanges ??= new ConfigurationsDelta(this.image.configs));
  }

  private clientQuotas(): ClientQuotasDelta {
    return (this.clientQuotasChanges ??= new ClientQuotasDelta(this.image.clientQuotas));
  }

  private security(): SecurityDelta {
    return (this.securityChanges ??= new SecurityDelta(this.image.security));
  }
}
