/**
 * Changes to ACLs, SCRAM credentials and delegation tokens. Each record states or removes one
 * entry whole; the image keeps the records' data as they are.
 */
import type { Uuid } from "../common/index.js";
import type {
  AccessControlEntryRecord,
  DelegationTokenRecord,
  RemoveAccessControlEntryRecord,
  RemoveDelegationTokenRecord,
  RemoveUserScramCredentialRecord,
  UserScramCredentialRecord,
} from "../protocol/index.js";
import { scramCredentialKey } from "./images.js";
import type { SecurityImage } from "./images.js";
import { KeyedChanges } from "./keyed-changes.js";
import { MetadataReplayError } from "./metadata-replay-error.js";

export class SecurityDelta {
  /** ACLs created (set) or removed (undefined) by id. */
  readonly acls: KeyedChanges<Uuid, AccessControlEntryRecord>;
  /** SCRAM credentials set or removed, by scramCredentialKey. */
  readonly scramCredentials: KeyedChanges<string, UserScramCredentialRecord>;
  /** Delegation tokens set or removed, by token id. */
  readonly delegationTokens: KeyedChanges<string, DelegationTokenRecord>;

  constructor(readonly image: SecurityImage) {
    this.acls = new KeyedChanges(image.acls);
    this.scramCredentials = new KeyedChanges(image.scramCredentials);
    this.delegationTokens = new KeyedChanges(image.delegationTokens);
  }

  replayAccessControlEntry(record: AccessControlEntryRecord): void {
    this.acls.set(record.id as Uuid, record);
  }

  /** Replays a RemoveAccessControlEntryRecord; as in Kafka, the ACL must exist. */
  replayRemoveAccessControlEntry(record: RemoveAccessControlEntryRecord): void {
    const id = record.id as Uuid;
    if (this.acls.get(id) === undefined) {
      throw new MetadataReplayError(`cannot remove ACL ${id}: it does not exist`);
    }
    this.acls.remove(id);
  }

  replayUserScramCredential(record: UserScramCredentialRecord): void {
    this.scramCredentials.set(scramCredentialKey(record), record);
  }

  replayRemoveUserScramCredential(record: RemoveUserScramCredentialRecord): void {
    this.scramCredentials.remove(scramCredentialKey(record));
  }

  replayDelegationToken(record: DelegationTokenRecord): void {
    this.delegationTokens.set(record.tokenId, record);
  }

  replayRemoveDelegationToken(record: RemoveDelegationTokenRecord): void {
    this.delegationTokens.remove(record.tokenId);
  }

  /** After a snapshot: entries it did not state are gone. */
  finishSnapshot(): void {
    this.acls.finishSnapshot();
    this.scramCredentials.finishSnapshot();
    this.delegationTokens.finishSnapshot();
  }

  apply(): SecurityImage {
    return {
      acls: this.acls.apply(),
      scramCredentials: this.scramCredentials.apply(),
      delegationTokens: this.delegationTokens.apply(),
    };
  }
}
