/**
 * AlterUserScramCredentials (51, v0, KIP-554): SCRAM credentials set and deleted by an operator
 * (`sluice configs --entity-type users`, an admin client), decided in scram/. Every user gets
 * its own answer; the accepted changes are one atomic batch. Served only by a controller with
 * the Crypto port, which derives the keys.
 */
import { assert } from "../../common/index.js";
import { ApiKey } from "../../protocol/index.js";
import { alterUserScramCredentials } from "../scram/index.js";
import { writeApi } from "./controller-api.js";

export const alterUserScramCredentialsApi = writeApi(ApiKey.AlterUserScramCredentials, {
  isUserOperation: true,
  needsCrypto: true,
  minVersion: 0,
  maxVersion: 0,
  compute: (context, request) => {
    assert(context.crypto !== undefined, "the API is served only with the Crypto port");
    return alterUserScramCredentials(context.image, request, context.crypto);
  },
  // Kafka's AlterUserScramCredentialsRequest.getErrorResponse: the error for each user named,
  // in name order.
  errorResponse: (request, _version, errorCode, errorMessage) => {
    const users = new Set([...request.deletions, ...request.upsertions].map(({ name }) => name));
    return {
      throttleTimeMs: 0,
      results: [...users].sort().map((user) => ({ user, errorCode, errorMessage })),
    };
  },
});
