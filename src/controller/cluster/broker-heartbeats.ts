/**
 * The controller's soft state about brokers: when it last heard from each one. It is not in the
 * metadata log, so a newly active controller starts it afresh (`heartbeatsAfterActivation`), as
 * Kafka's BrokerHeartbeatManager does, and on losing leadership it is simply dropped.
 *
 * Immutable: each operation that touches it returns the next value, so an operation stays a pure
 * function of its inputs.
 */
import type { BrokerId } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";

/** What the controller remembers of one broker between heartbeats. */
export interface BrokerContact {
  /** The controller's time of the broker's last registration or heartbeat. */
  readonly lastContactMs: number;
  /** The metadata offset the broker reported in its last heartbeat, or -1. */
  readonly metadataOffset: number;
}

/** Last contact per broker. */
export class BrokerHeartbeats {
  static readonly EMPTY = new BrokerHeartbeats(new Map());

  private constructor(private readonly contacts: ReadonlyMap<BrokerId, BrokerContact>) {}

  /** The broker's last contact, or undefined when the controller has not heard from it. */
  contactOf(brokerId: BrokerId): BrokerContact | undefined {
    return this.contacts.get(brokerId);
  }

  /**
   * Whether the broker's session is live at `nowMs`: heard from within the session timeout.
   * Kafka's rule: the session lasts while lastContact + sessionTimeout >= now.
   */
  hasLiveSession(brokerId: BrokerId, nowMs: number, sessionTimeoutMs: number): boolean {
    const contact = this.contacts.get(brokerId);
    return contact !== undefined && contact.lastContactMs + sessionTimeoutMs >= nowMs;
  }

  /** The state after hearing from the broker at `nowMs`. */
  touched(brokerId: BrokerId, nowMs: number, metadataOffset: number): BrokerHeartbeats {
    const contacts = new Map(this.contacts);
    contacts.set(brokerId, { lastContactMs: nowMs, metadataOffset });
    return new BrokerHeartbeats(contacts);
  }

  without(brokerId: BrokerId): BrokerHeartbeats {
    if (!this.contacts.has(brokerId)) return this;
    const contacts = new Map(this.contacts);
    contacts.delete(brokerId);
    return new BrokerHeartbeats(contacts);
  }

  /** Every broker the state knows, in id order. */
  brokerIds(): BrokerId[] {
    return [...this.contacts.keys()].sort((a, b) => a - b);
  }
}

/**
 * The soft state of a controller that has just become active: every registered broker counts as
 * heard from now, so that none is fenced before it had a full session to reach the new leader.
 */
export function heartbeatsAfterActivation(image: MetadataImage, nowMs: number): BrokerHeartbeats {
  let heartbeats = BrokerHeartbeats.EMPTY;
  for (const broker of image.cluster.brokers.values()) {
    heartbeats = heartbeats.touched(broker.id, nowMs, -1);
  }
  return heartbeats;
}
