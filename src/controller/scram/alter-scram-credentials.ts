/**
 * AlterUserScramCredentials (51) as Kafka's ScramControlManager decides it. The request carries
 * the client's salt and salted password (KIP-554: the password never travels); the controller
 * derives StoredKey = H(HMAC(salted, "Client Key")) and ServerKey = HMAC(salted, "Server Key")
 * (RFC 5802) and writes a UserScramCredentialRecord, or a RemoveUserScramCredentialRecord for
 * a deletion. Each user may be altered once per request: a second deletion or upsertion of the
 * same user, whatever its mechanism, is DUPLICATE_RESOURCE and drops the user's first change.
 * Accepted changes are answered first (deletions, then upsertions), then the refusals.
 */
import { ErrorCode } from "../../common/index.js";
import { scramCredentialKey } from "../../metadata/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import {
  MetadataRecordType,
  type AlterUserScramCredentialsRequest,
  type AlterUserScramCredentialsRequestScramCredentialDeletion as Deletion,
  type AlterUserScramCredentialsRequestScramCredentialUpsertion as Upsertion,
  type AlterUserScramCredentialsResponse,
  type MetadataRecord,
} from "../../protocol/index.js";
import type { Crypto, HashAlgorithm } from "../../ports/index.js";

/** The hash of each SCRAM mechanism type (Kafka's ScramMechanism: 1 SHA-256, 2 SHA-512). */
export const SCRAM_HASHES: ReadonlyMap<number, HashAlgorithm> = new Map([
  [1, "sha256"],
  [2, "sha512"],
]);

/** Kafka's lowest iteration count for a SCRAM credential (ScramMechanism.minIterations). */
export const SCRAM_ITERATIONS_MIN = 4096;
/** Kafka's highest (ScramControlManager.MAX_ITERATIONS). */
export const SCRAM_ITERATIONS_MAX = 16384;

/** The level that brought SCRAM to KRaft (3.5-IV2, MetadataVersion.isScramSupported). */
const SCRAM_METADATA_VERSION = 11;

const DUPLICATE_MESSAGE = "A user credential cannot be altered twice in the same request";
const UNSUPPORTED_MESSAGE = "The current metadata.version does not support SCRAM";

export interface ScramKeys {
  readonly storedKey: Uint8Array;
  readonly serverKey: Uint8Array;
}

const encoder = new TextEncoder();

/** The keys a server keeps of a salted password (RFC 5802 section 3). */
export function scramKeysOf(
  crypto: Crypto,
  hash: HashAlgorithm,
  saltedPassword: Uint8Array,
): ScramKeys {
  const clientKey = crypto.hmac(hash, saltedPassword, encoder.encode("Client Key"));
  return {
    storedKey: crypto.hash(hash, clientKey),
    serverKey: crypto.hmac(hash, saltedPassword, encoder.encode("Server Key")),
  };
}

interface Refusal {
  readonly errorCode: number;
  readonly errorMessage: string | null;
}

type Result = AlterUserScramCredentialsResponse["results"][number];

export function alterUserScramCredentials(
  image: MetadataImage,
  request: AlterUserScramCredentialsRequest,
  crypto: Crypto,
): { records: MetadataRecord[]; response: AlterUserScramCredentialsResponse } {
  const isSupported = (image.features.metadataVersion ?? 0) >= SCRAM_METADATA_VERSION;
  const deletions = new Map<string, Deletion>();
  const upsertions = new Map<string, Upsertion>();
  const refusals = new Map<string, Refusal>();
  const refuse = (name: string, errorCode: number, errorMessage: string | null) =>
    refusals.set(name, { errorCode, errorMessage });
  for (const deletion of request.deletions) {
    const { name } = deletion;
    if (refusals.has(name)) continue;
    if (deletions.delete(name)) refuse(name, ErrorCode.DUPLICATE_RESOURCE, DUPLICATE_MESSAGE);
    else if (!isSupported) refuse(name, ErrorCode.UNSUPPORTED_VERSION, UNSUPPORTED_MESSAGE);
    else {
      const refusal = deletionRefusal(image, deletion);
      if (refusal === undefined) deletions.set(name, deletion);
      else refusals.set(name, refusal);
    }
  }
  for (const upsertion of request.upsertions) {
    const { name } = upsertion;
    if (refusals.has(name)) continue;
    if (deletions.delete(name) || upsertions.delete(name)) {
      refuse(name, ErrorCode.DUPLICATE_RESOURCE, DUPLICATE_MESSAGE);
    } else if (!isSupported) refuse(name, ErrorCode.UNSUPPORTED_VERSION, UNSUPPORTED_MESSAGE);
    else {
      const refusal = upsertionRefusal(upsertion);
      if (refusal === undefined) upsertions.set(name, upsertion);
      else refusals.set(name, refusal);
    }
  }
  const records: MetadataRecord[] = [];
  const results: Result[] = [];
  const accepted = (user: string) => results.push({ user, errorCode: 0, errorMessage: null });
  for (const { name, mechanism } of deletions.values()) {
    records.push({
      type: MetadataRecordType.RemoveUserScramCredentialRecord,
      version: 0,
      data: { name, mechanism },
    });
    accepted(name);
  }
  for (const upsertion of upsertions.values()) {
    const record = credentialRecord(crypto, upsertion);
    if ("errorCode" in record) refusals.set(upsertion.name, record);
    else {
      records.push(record);
      accepted(upsertion.name);
    }
  }
  for (const [user, refusal] of refusals) results.push({ user, ...refusal });
  return { records, response: { throttleTimeMs: 0, results } };
}

function nameAndMechanismRefusal(name: string, mechanism: number): Refusal | undefined {
  if (name === "") {
    return {
      errorCode: ErrorCode.UNACCEPTABLE_CREDENTIAL,
      errorMessage: "Username must not be empty",
    };
  }
  if (!SCRAM_HASHES.has(mechanism)) {
    return {
      errorCode: ErrorCode.UNSUPPORTED_SASL_MECHANISM,
      errorMessage: "Unknown SCRAM mechanism",
    };
  }
  return undefined;
}

function deletionRefusal(image: MetadataImage, deletion: Deletion): Refusal | undefined {
  const refusal = nameAndMechanismRefusal(deletion.name, deletion.mechanism);
  if (refusal !== undefined) return refusal;
  if (!image.security.scramCredentials.has(scramCredentialKey(deletion))) {
    return {
      errorCode: ErrorCode.RESOURCE_NOT_FOUND,
      errorMessage: "Attempt to delete a user credential that does not exist",
    };
  }
  return undefined;
}

function upsertionRefusal(upsertion: Upsertion): Refusal | undefined {
  const refusal = nameAndMechanismRefusal(upsertion.name, upsertion.mechanism);
  if (refusal !== undefined) return refusal;
  const unacceptable = (errorMessage: string) => ({
    errorCode: ErrorCode.UNACCEPTABLE_CREDENTIAL,
    errorMessage,
  });
  if (upsertion.iterations < SCRAM_ITERATIONS_MIN) return unacceptable("Too few iterations");
  if (upsertion.iterations > SCRAM_ITERATIONS_MAX) return unacceptable("Too many iterations");
  return undefined;
}

/**
 * The record of an accepted upsertion. An empty salted password cannot key an HMAC: Kafka's
 * formatter throws there, which its controller answers UNKNOWN_SERVER_ERROR without a message.
 */
function credentialRecord(crypto: Crypto, upsertion: Upsertion): MetadataRecord | Refusal {
  const hash = SCRAM_HASHES.get(upsertion.mechanism);
  if (hash === undefined || upsertion.saltedPassword.length === 0) {
    return { errorCode: ErrorCode.UNKNOWN_SERVER_ERROR, errorMessage: null };
  }
  const { name, mechanism, salt, iterations } = upsertion;
  return {
    type: MetadataRecordType.UserScramCredentialRecord,
    version: 0,
    data: {
      name,
      mechanism,
      salt,
      ...scramKeysOf(crypto, hash, upsertion.saltedPassword),
      iterations,
    },
  };
}
