/**
 * AlterClientQuotas (49, v0-1; v1 is flexible), a write, the range Kafka's controllers serve.
 * Its error response answers every entity of the request, as Kafka's getErrorResponse does.
 */
import { ApiKey } from "../../protocol/index.js";
import { alterClientQuotas } from "../quotas/index.js";
import { writeApi } from "./controller-api.js";

export const alterClientQuotasApi = writeApi(ApiKey.AlterClientQuotas, {
  isUserOperation: true,
  minVersion: 0,
  maxVersion: 1,
  compute: (context, request) => alterClientQuotas(context.image, request),
  errorResponse: (request, _version, errorCode, errorMessage) => ({
    throttleTimeMs: 0,
    entries: request.entries.map((entry) => ({
      errorCode,
      errorMessage,
      entity: entry.entity.map(({ entityType, entityName }) => ({ entityType, entityName })),
    })),
  }),
});
