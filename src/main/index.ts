// The public surface of src/main: the node configuration (definitions, loading,
// validation, the typed NodeConfig and the single-node preset) and the node assembly.
export type {
  ConfigDefinition,
  ConfigProblem,
  ConfigSource,
  ConfigType,
  ConfigValue,
  Importance,
  Validator,
} from "./config/config-types.js";
export { describeSource, formatProblem } from "./config/config-types.js";
export type {
  HostPort,
  ListenerAddress,
  SecurityProtocol,
  VoterAddress,
} from "./config/addresses.js";
export {
  formatHostPort,
  parseHostPort,
  parseListener,
  parseVoter,
  SECURITY_PROTOCOLS,
} from "./config/addresses.js";
export {
  CONFIG_DEFINITIONS,
  ENVIRONMENT_PREFIX,
  configDefinition,
  environmentVariableOf,
} from "./config/definitions.js";
export { ConfigValues, type ResolvedValue } from "./config/config-values.js";
export { loadNodeConfig, type ConfigBase, type ConfigInput } from "./config/load-config.js";
export {
  loadNodeConfigFrom,
  type ConfigFileResult,
  type ConfigRequest,
} from "./config/load-config.driver.js";
export {
  buildNodeConfig,
  type NodeConfig,
  type NodeConfigResult,
  type ProcessRole,
  type QuorumSettings,
} from "./config/node-config.js";
export type { ListenerConfig, ListenerSettings, Roles } from "./config/listener-rules.js";
export type { CleanupPolicy, LogSettings } from "./config/log-settings.js";
export {
  SINGLE_NODE_PRESET,
  SINGLE_NODE_PRESET_NAME,
  SINGLE_NODE_SETTINGS,
} from "./config/single-node.js";
export { formatConfigDocs } from "./config/config-docs.js";
export type { ClientSecurityConfig, TlsSource } from "./config/security-settings.js";
export { clientSecurityOf as loadClientSecurity } from "./node-security.js";
// The controller node (process.roles=controller): its composition root and `sluice start`.
export {
  ControllerStartError,
  startControllerNode,
  type ControllerNode,
  type ControllerNodeOptions,
  type ControllerNodePorts,
} from "./controller-node.js";
export {
  runControllerProcess,
  type StartOutput,
  type StartRequest,
} from "./controller-node-process.js";
// A node of any role (broker, controller, or both): its composition root and `sluice start`.
export { startNode, type NodeOptions, type RunningNode } from "./node.js";
export { runNodeProcess, listeningLine } from "./node-process.js";
export { NodeStartError, type NodeIdentity, type NodePorts } from "./node-types.js";
export { prepareStorage, type FormatPolicy } from "./node-storage.js";
