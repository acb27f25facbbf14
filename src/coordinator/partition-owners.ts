/**
 * Which member of a consumer group holds each partition now (assigned, or still to revoke):
 * KIP-848 gives a partition to its next owner only once no other member holds it.
 */
import type { Reconciliation } from "./current-assignment.js";

export class PartitionOwners {
  private readonly owners = new Map<string, string>();

  isOwnedByOther(memberId: string, topicId: string, partition: number): boolean {
    const owner = this.owners.get(partitionKey(topicId, partition));
    return owner !== undefined && owner !== memberId;
  }

  release(memberId: string, reconciliation: Reconciliation): void {
    for (const key of keysOf(reconciliation)) {
      if (this.owners.get(key) === memberId) this.owners.delete(key);
    }
  }

  claim(memberId: string, reconciliation: Reconciliation): void {
    for (const key of keysOf(reconciliation)) this.owners.set(key, memberId);
  }
}

function keysOf({ assigned, pendingRevocation }: Reconciliation): string[] {
  const keys: string[] = [];
  for (const assignment of [assigned, pendingRevocation]) {
    for (const [topicId, partitions] of assignment) {
      for (const partition of partitions) keys.push(partitionKey(topicId, partition));
    }
  }
  return keys;
}

function partitionKey(topicId: string, partition: number): string {
  return `${topicId}\u0000${partition}`;
}
