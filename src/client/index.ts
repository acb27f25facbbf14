// The public surface of the project's protocol client.
export { ClientConnection, type ClientPorts } from "./client-connection.driver.js";
export {
  ClientPool,
  formatAddress,
  withConnection,
  type ClientTarget,
} from "./client-pool.driver.js";
export { DEFAULT_CLIENT_OPTIONS, clientOptions, type ClientOptions } from "./client-options.js";
export {
  describeFailure,
  isResponse,
  type ClientFailure,
  type ClientResponse,
  type ClientResult,
  type DisconnectReason,
  type VersionBounds,
} from "./client-result.js";
export type { RequestBody, RequestOptions } from "./pending-request.js";
export { RECONNECT_JITTER, reconnectBackoffMs, type BackoffBounds } from "./reconnect-backoff.js";
export {
  apiVersionsMaxVersion,
  chooseVersion,
  decodeApiVersionsResponse,
  interpretApiVersionsResponse,
  type ApiVersionsOutcome,
  type ServedVersions,
  type VersionChoice,
  type VersionWish,
} from "./version-negotiation.js";
export type { ClientSecurity } from "./client-options.js";
export type { SaslCredentials } from "./sasl-login.js";
