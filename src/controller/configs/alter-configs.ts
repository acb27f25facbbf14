/**
 * AlterConfigs (v0-v2), the legacy form: the request states the whole set of configs a resource
 * should have; keys it leaves out are removed. Each resource succeeds or fails alone;
 * validateOnly checks everything and writes nothing.
 */
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type {
  AlterConfigsRequest,
  AlterConfigsRequestAlterConfigsResource,
  AlterConfigsResponse,
} from "../../protocol/index.js";
import type { ControllerResult } from "../cluster/index.js";
import { alterEachResource, changeTo, currentValues, refusal } from "./config-changes.js";
import type { ResourceChange } from "./config-changes.js";
import { checkResource } from "./config-resources.js";

export function alterConfigs(
  image: MetadataImage,
  request: AlterConfigsRequest,
): ControllerResult<AlterConfigsResponse> {
  const { records, responses } = alterEachResource(request, (resource) =>
    replaceConfigs(image, resource),
  );
  return { records, response: { throttleTimeMs: 0, responses } };
}

function replaceConfigs(
  image: MetadataImage,
  resource: AlterConfigsRequestAlterConfigsResource,
): ResourceChange {
  const checked = checkResource(image, resource.resourceType, resource.resourceName);
  if (checked.kind === "refused") return refusal(checked.errorCode, checked.errorMessage);
  const wanted = new Map<string, string | null>();
  for (const config of resource.configs) {
    if (wanted.has(config.name)) {
      return refusal(ErrorCode.INVALID_REQUEST, `config ${config.name} is named more than once`);
    }
    wanted.set(config.name, config.value);
  }
  const target = new Map(wanted);
  for (const key of currentValues(image, checked).keys()) {
    if (!target.has(key)) target.set(key, null);
  }
  return changeTo(image, checked, wanted, target);
}
