/** Checks of the configs a CreateTopics request sets on a new topic. */
import { ErrorCode } from "../../common/index.js";
import { invalidValueReason, topicConfigDefinition } from "../configs/index.js";
import type { TopicRefusal } from "./manual-assignment.js";

/** Why the configs are refused (INVALID_CONFIG, or INVALID_REQUEST for a malformed list). */
export function invalidTopicConfigs(
  configs: readonly { readonly name: string; readonly value: string | null }[],
): TopicRefusal | undefined {
  const seen = new Set<string>();
  for (const { name, value } of configs) {
    if (seen.has(name)) {
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: `config ${name} is set twice` };
    }
    seen.add(name);
    if (value === null) {
      return { errorCode: ErrorCode.INVALID_REQUEST, errorMessage: `config ${name} has no value` };
    }
    const definition = topicConfigDefinition(name);
    if (definition === undefined) {
      return { errorCode: ErrorCode.INVALID_CONFIG, errorMessage: `unknown topic config ${name}` };
    }
    const reason = invalidValueReason(definition, value);
    if (reason !== undefined) return { errorCode: ErrorCode.INVALID_CONFIG, errorMessage: reason };
  }
  return undefined;
}
