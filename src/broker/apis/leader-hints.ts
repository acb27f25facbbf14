/**
 * KIP-951 leader hints: on NOT_LEADER_OR_FOLLOWER and FENCED_LEADER_EPOCH, Produce v10+ and
 * Fetch v16+ name the partition's current leader (`currentLeader`) and give that leader's
 * endpoint on the request's listener (`nodeEndpoints`), so that a client can go to the new
 * leader without first refreshing its metadata.
 */
import { brokerId, ErrorCode } from "../../common/index.js";
import { NO_LEADER, type MetadataImage } from "../../metadata/index.js";
import { endpointOf } from "../metadata-cache/index.js";

/** A partition's leader and leader epoch as the image has them (-1, -1 when unknown). */
export interface CurrentLeader {
  readonly leaderId: number;
  readonly leaderEpoch: number;
}

/** A leader's endpoint in the shape of the responses' NodeEndpoint struct. */
export interface NodeEndpoint {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  readonly rack: string | null;
}

/** The partition errors that carry a leader hint (Kafka's KafkaApis does the same two). */
export function isLeaderHintError(errorCode: number): boolean {
  return (
    errorCode === ErrorCode.NOT_LEADER_OR_FOLLOWER || errorCode === ErrorCode.FENCED_LEADER_EPOCH
  );
}

/**
 * Collects the hints of one response from one image: each partition asks `currentLeaderOf`,
 * and `nodeEndpoints` then lists, by node id, the endpoints of the leaders named so far.
 */
export class LeaderHints {
  private readonly endpoints = new Map<number, NodeEndpoint>();

  constructor(
    private readonly image: MetadataImage,
    private readonly listenerName: string,
  ) {}

  /**
   * The current leader of `topic`-`partition` when `errorCode` calls for a hint, else
   * undefined. A leader that is alive (unfenced) and has the request's listener adds its
   * endpoint; an unknown partition is answered -1, -1, as Kafka answers it.
   */
  currentLeaderOf(
    topicPartition: { readonly topic: string; readonly partition: number },
    errorCode: number,
  ): CurrentLeader | undefined {
    if (!isLeaderHintError(errorCode)) return undefined;
    const registration = this.image.topics.byName
      .get(topicPartition.topic)
      ?.partitions.get(topicPartition.partition);
    if (registration === undefined) return { leaderId: -1, leaderEpoch: -1 };
    const leaderId: number = registration.leader;
    if (leaderId !== NO_LEADER) this.maybeAddEndpoint(leaderId);
    return { leaderId, leaderEpoch: registration.leaderEpoch };
  }

  /** The endpoints of the leaders named so far, by node id. */
  get nodeEndpoints(): NodeEndpoint[] {
    return [...this.endpoints.values()].sort((a, b) => a.nodeId - b.nodeId);
  }

  /** Adds the endpoint of `leaderId`; says whether it has one to add. */
  private maybeAddEndpoint(leaderId: number): boolean {
    if (this.endpoints.has(leaderId)) return true;
    const broker = this.image.cluster.brokers.get(brokerId(leaderId));
    if (broker === undefined || broker.isFenced) return false;
    const endpoint = endpointOf(broker, this.listenerName);
    if (endpoint === undefined) return false;
    const { host, port, rack } = endpoint;
    this.endpoints.set(leaderId, { nodeId: leaderId, host, port, rack });
    return true;
  }
}
