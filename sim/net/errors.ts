/** The errno-style codes of the simulated network, as Node reports them for real sockets. */
export type NetworkErrorCode =
  "ECONNRESET" | "ECONNREFUSED" | "ETIMEDOUT" | "EADDRINUSE" | "ENOTFOUND";

/** A failure of the simulated network, with a `code` like Node's socket errors. */
export class SimNetworkError extends Error {
  override readonly name = "SimNetworkError";

  constructor(
    readonly code: NetworkErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}
