/**
 * The replica fetchers' settings read from the `replica.*` keys, `num.replica.fetchers` and
 * `broker.rack`, in the shape src/replication's fetcher manager takes, and the replication
 * throttles' rate window (`replication.quota.window.*`).
 */
import type { RateWindow, ReplicaFetcherManagerSettings } from "../../replication/index.js";
import type { ConfigValues } from "./config-values.js";

export interface ReplicationSettings extends ReplicaFetcherManagerSettings {
  /** `replica.socket.timeout.ms`. */
  readonly requestTimeoutMs: number;
  /** `replication.quota.window.num` and `replication.quota.window.size.seconds`. */
  readonly quotaWindow: RateWindow;
}

export function replicationSettingsOf(values: ConfigValues): ReplicationSettings {
  return {
    numFetchers: values.number("num.replica.fetchers"),
    maxWaitMs: values.number("replica.fetch.wait.max.ms"),
    minBytes: values.number("replica.fetch.min.bytes"),
    responseMaxBytes: values.number("replica.fetch.response.max.bytes"),
    partitionMaxBytes: values.number("replica.fetch.max.bytes"),
    backoffMs: values.number("replica.fetch.backoff.ms"),
    rackId: values.stringOrNull("broker.rack") ?? "",
    requestTimeoutMs: values.number("replica.socket.timeout.ms"),
    quotaWindow: {
      samples: values.number("replication.quota.window.num"),
      windowMs: values.number("replication.quota.window.size.seconds") * 1000,
    },
  };
}
