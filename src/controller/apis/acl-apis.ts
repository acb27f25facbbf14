/**
 * CreateAcls (30) and DeleteAcls (31), v1-3, the range Kafka 4 serves: writes of the ACL
 * control. Without an authorizer they answer SECURITY_DISABLED, as Kafka's AclApis.
 */
import { ErrorCode } from "../../common/index.js";
import { ApiKey } from "../../protocol/index.js";
import { createAcls, deleteAcls } from "../acls/index.js";
import { writeApi } from "./controller-api.js";

const SECURITY_DISABLED_MESSAGE = "No Authorizer is configured.";

export const createAclsApi = writeApi(ApiKey.CreateAcls, {
  isUserOperation: true,
  minVersion: 1,
  maxVersion: 3,
  compute: (context, request) => {
    if (!context.settings.isAuthorizerEnabled) {
      const errorCode = ErrorCode.SECURITY_DISABLED;
      const results = request.creations.map(() => ({
        errorCode,
        errorMessage: SECURITY_DISABLED_MESSAGE,
      }));
      return { records: [], response: { throttleTimeMs: 0, results } };
    }
    return createAcls(context.image, context.random, request);
  },
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    results: request.creations.map(() => ({ errorCode, errorMessage })),
  }),
});

export const deleteAclsApi = writeApi(ApiKey.DeleteAcls, {
  isUserOperation: true,
  minVersion: 1,
  maxVersion: 3,
  compute: (context, request) => {
    if (!context.settings.isAuthorizerEnabled) {
      const errorCode = ErrorCode.SECURITY_DISABLED;
      const filterResults = request.filters.map(() => ({
        errorCode,
        errorMessage: SECURITY_DISABLED_MESSAGE,
        matchingAcls: [],
      }));
      return { records: [], response: { throttleTimeMs: 0, filterResults } };
    }
    return deleteAcls(context.image, request);
  },
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    filterResults: request.filters.map(() => ({ errorCode, errorMessage, matchingAcls: [] })),
  }),
});
