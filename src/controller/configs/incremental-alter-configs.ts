/**
 * IncrementalAlterConfigs (v0-v1): SET, DELETE, APPEND and SUBTRACT operations on single keys
 * (KIP-339). APPEND and SUBTRACT work on list configs only, starting from the key's current
 * value (the default when unset), as Kafka's controller does. Each resource succeeds or fails
 * alone; validateOnly checks everything and writes nothing.
 */
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type {
  IncrementalAlterConfigsRequest,
  IncrementalAlterConfigsRequestAlterConfigsResource,
  IncrementalAlterConfigsResponse,
} from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/index.js";
import { listItems } from "./config-definition.js";
import { alterEachResource, changeTo, currentValues, refusal } from "./config-changes.js";
import type { ConfigurableResource, ResourceChange } from "./config-changes.js";
import { checkResource, definitionOn, unknownKeyMessage } from "./config-resources.js";

/** IncrementalAlterConfigs configOperation values. */
export const ConfigOperation = { SET: 0, DELETE: 1, APPEND: 2, SUBTRACT: 3 } as const;

export function incrementalAlterConfigs(
  image: MetadataImage,
  request: IncrementalAlterConfigsRequest,
): ControllerResult<IncrementalAlterConfigsResponse> {
  const { records, responses } = alterEachResource(request, (resource) =>
    alterResource(image, resource),
  );
  return { records, response: { throttleTimeMs: 0, responses } };
}

function alterResource(
  image: MetadataImage,
  resource: IncrementalAlterConfigsRequestAlterConfigsResource,
): ResourceChange {
  const checked = checkResource(image, resource.resourceType, resource.resourceName);
  if (checked.kind === "refused") return refusal(checked.errorCode, checked.errorMessage);
  const current = currentValues(image, checked);
  const target = new Map<string, string | null>();
  for (const config of resource.configs) {
    if (target.has(config.name)) {
      return refusal(ErrorCode.INVALID_REQUEST, `config ${config.name} is named more than once`);
    }
    const value = operate(checked, current, config);
    if (typeof value === "object" && value !== null) return value;
    target.set(config.name, value);
  }
  return changeTo(image, checked, target, target);
}

/** The key's value after one operation (null removes it), or the refusal. */
function operate(
  resource: ConfigurableResource,
  current: ReadonlyMap<string, string>,
  config: {
    readonly name: string;
    readonly configOperation: number;
    readonly value: string | null;
  },
): string | null | ResourceChange {
  const { name, configOperation, value } = config;
  if (configOperation === ConfigOperation.DELETE) return null;
  if (configOperation < ConfigOperation.SET || configOperation > ConfigOperation.SUBTRACT) {
    return refusal(ErrorCode.INVALID_REQUEST, `config operation ${configOperation} is not defined`);
  }
  if (value === null) return refusal(ErrorCode.INVALID_REQUEST, `config ${name} needs a value`);
  if (configOperation === ConfigOperation.SET) return value;
  const definition = definitionOn(resource, name);
  if (definition === undefined)
    return refusal(ErrorCode.INVALID_CONFIG, unknownKeyMessage(resource, name));
  if (definition.type !== "list") {
    const verb = configOperation === ConfigOperation.APPEND ? "append to" : "subtract from";
    return refusal(ErrorCode.INVALID_CONFIG, `cannot ${verb} ${name}: it is not a list`);
  }
  const before = listItems(current.get(name) ?? definition.defaultValue ?? "");
  const items = listItems(value);
  const after =
    configOperation === ConfigOperation.APPEND
      ? [...before, ...items.filter((item) => !before.includes(item))]
      : before.filter((item) => !items.includes(item));
  return after.join(",");
}
