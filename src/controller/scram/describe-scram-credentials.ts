/**
 * DescribeUserScramCredentials (50) as Kafka answers it from the metadata image (ScramImage):
 * without users (null or empty), every user that has a credential; otherwise each user named,
 * RESOURCE_NOT_FOUND for one without any credential and DUPLICATE_RESOURCE for one named twice.
 * A user's credentials list the mechanism and iterations only, never salt or keys.
 */
import { ErrorCode } from "../../common/index.js";
import { scramCredentialKey, type MetadataImage } from "../../metadata/index.js";
import type {
  DescribeUserScramCredentialsRequest,
  DescribeUserScramCredentialsResponse,
} from "../../protocol/index.js";
import { SCRAM_HASHES } from "./alter-scram-credentials.js";

const DUPLICATE_USER =
  "Cannot describe SCRAM credentials for the same user twice in a single request: ";
const MISSING_USER = "Attempt to describe a user credential that does not exist: ";

type Result = DescribeUserScramCredentialsResponse["results"][number];

export function describeUserScramCredentials(
  image: MetadataImage,
  request: DescribeUserScramCredentialsRequest,
): DescribeUserScramCredentialsResponse {
  const credentials = image.security.scramCredentials;
  // User name to whether it was named more than once.
  const users = new Map<string, boolean>();
  if (request.users === null || request.users.length === 0) {
    const names = [...credentials.values()].map((credential) => credential.name);
    for (const name of names.sort()) users.set(name, false);
  } else {
    for (const { name } of request.users) users.set(name, users.has(name));
  }
  const results: Result[] = [];
  for (const [user, isDuplicate] of users) {
    if (isDuplicate) {
      const errorMessage = DUPLICATE_USER + user;
      results.push({
        user,
        errorCode: ErrorCode.DUPLICATE_RESOURCE,
        errorMessage,
        credentialInfos: [],
      });
      continue;
    }
    const credentialInfos = [...SCRAM_HASHES.keys()].flatMap((mechanism) => {
      const credential = credentials.get(scramCredentialKey({ mechanism, name: user }));
      return credential === undefined ? [] : [{ mechanism, iterations: credential.iterations }];
    });
    if (credentialInfos.length > 0) {
      results.push({ user, errorCode: 0, errorMessage: null, credentialInfos });
    } else {
      const errorMessage = MISSING_USER + user;
      results.push({
        user,
        errorCode: ErrorCode.RESOURCE_NOT_FOUND,
        errorMessage,
        credentialInfos,
      });
    }
  }
  return { throttleTimeMs: 0, errorCode: 0, errorMessage: null, results };
}
