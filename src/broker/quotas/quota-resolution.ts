/**
 * Which quota binds a request, as Kafka's default quota callback resolves it (KIP-55): for one
 * quota key, the first entity that sets it in this order, most specific first:
 *
 *   1. user and client-id      5. default user and default client-id
 *   2. user, default client-id 6. default user
 *   3. user                    7. client-id
 *   4. default user, client-id 8. default client-id
 *
 * The entity also says who shares the measured rate (Kafka's metric tags): a user quota binds
 * all of the user's client ids together, a client-id quota every user of that client id.
 */
import {
  clientQuotaEntityKey,
  type ClientQuotaEntityPart,
  type ClientQuotasImage,
} from "../../metadata/index.js";

/** The quota that binds a request, and the rate it is measured against. */
export interface ResolvedQuota {
  /** The bound, per second (bytes for the byte rates); Infinity when no entity sets the key. */
  readonly bound: number;
  /**
   * Who shares the rate: Kafka's (user, client-id) metric tags, an empty string for a part
   * that does not divide the rate.
   */
  readonly user: string;
  readonly clientId: string;
}

type Name = string | null;

/** The entities to look at, in order, each with the tags it measures under. */
function candidates(user: string, clientId: string): [Name | undefined, Name | undefined][] {
  // undefined: the entity has no such part; null: the default entity of that type.
  return [
    [user, clientId],
    [user, null],
    [user, undefined],
    [null, clientId],
    [null, null],
    [null, undefined],
    [undefined, clientId],
    [undefined, null],
  ];
}

function entityKey(user: Name | undefined, clientId: Name | undefined): string {
  const parts: ClientQuotaEntityPart[] = [];
  if (user !== undefined) parts.push({ entityType: "user", entityName: user });
  if (clientId !== undefined) parts.push({ entityType: "client-id", entityName: clientId });
  return clientQuotaEntityKey(parts);
}

/**
 * The quota of `key` for a request of principal `user` with client id `clientId`. Kafka skips
 * the user entities for an empty user name and the client-id ones for an empty client id.
 */
export function resolveQuota(
  image: ClientQuotasImage,
  key: string,
  user: string,
  clientId: string,
): ResolvedQuota {
  for (const [userPart, clientPart] of candidates(user, clientId)) {
    if (user === "" && userPart !== undefined) continue;
    if (clientId === "" && clientPart !== undefined) continue;
    const bound = image.entities.get(entityKey(userPart, clientPart))?.quotas.get(key);
    if (bound === undefined) continue;
    return {
      bound,
      user: userPart === undefined ? "" : user,
      clientId: clientPart === undefined ? "" : clientId,
    };
  }
  return { bound: Infinity, user: "", clientId };
}

/** Whether any entity sets `key` (Kafka's quotasEnabled, per quota type). */
export function isQuotaKeySet(image: ClientQuotasImage, key: string): boolean {
  for (const { quotas } of image.entities.values()) if (quotas.has(key)) return true;
  return false;
}
