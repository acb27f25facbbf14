/**
 * Whether a controller's answer says "I am not the active controller". Kafka's controller puts
 * NOT_CONTROLLER where the API keeps its errors: the top-level error code of BrokerHeartbeat or
 * AlterPartition, the per-topic results of CreateTopics and DeleteTopics, the per-resource results
 * of AlterConfigs. Such an answer is never a final one: the request goes to another controller.
 */
import { ErrorCode } from "../../common/index.js";

/** How deep into nested results the search goes: response, topic, partition. */
const RESULT_DEPTH_MAX = 3;

/** True when `body` carries NOT_CONTROLLER at its top level or in any of its nested results. */
export function carriesNotController(body: object): boolean {
  return hasNotController(body, RESULT_DEPTH_MAX);
}

function hasNotController(value: unknown, depth: number): boolean {
  if (depth <= 0 || typeof value !== "object" || value === null) return false;
  if (value instanceof Uint8Array) return false;
  if (Array.isArray(value)) return value.some((item) => hasNotController(item, depth));
  const record = value as Record<string, unknown>;
  if (record["errorCode"] === ErrorCode.NOT_CONTROLLER) return true;
  return Object.values(record).some(
    (field) => Array.isArray(field) && hasNotController(field, depth - 1),
  );
}
