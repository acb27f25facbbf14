import type { Counter, Gauge, Histogram, MetricsSink } from "../../ports/index.js";
import { apiDefinition } from "../../protocol/index.js";
import { RequestMetrics } from "./request-metrics.js";

/** Why the broker closed a connection, as a metric label. */
export type CloseReason =
  | "idle"
  | "badFrame"
  | "malformedRequest"
  | "unknownApi"
  | "unsupportedVersion"
  | "handler"
  | "maxConnections"
  | "maxConnectionsPerIp"
  | "shutdown"
  | "authentication"
  | "sessionExpired";

/** How many client software names get series of their own. */
const MAX_SOFTWARE_NAMES = 32;

interface ApiSeries {
  readonly requests: Counter;
  readonly latencyMs: Histogram;
}

/**
 * The connection layer's metrics: requests and their latency per API (taken up until the
 * response is written), bytes in and out, open connections, and closes by reason. Series are
 * made on first use and kept.
 */
export class NetworkMetrics {
  readonly bytesIn: Counter;
  readonly bytesOut: Counter;
  readonly openConnections: Gauge;
  readonly memoryPoolUsedBytes: Gauge;
  /** Kafka's RequestMetrics, under Kafka's names. */
  readonly kafka: RequestMetrics;
  private readonly byApi = new Map<number, ApiSeries>();
  private readonly closes = new Map<CloseReason, Counter>();
  private readonly trailing = new Map<number, Counter>();
  private readonly byVersion = new Map<string, Counter>();
  private readonly softwareNames = new Set<string>();

  constructor(private readonly sink: MetricsSink) {
    this.kafka = new RequestMetrics(sink);
    this.bytesIn = sink.counter("sluice_network_bytes_in_total", "Bytes received from clients.");
    this.bytesOut = sink.counter("sluice_network_bytes_out_total", "Bytes sent to clients.");
    this.openConnections = sink.gauge("sluice_connections_open", "Open client connections.");
    this.memoryPoolUsedBytes = sink.gauge(
      "sluice_request_memory_used_bytes",
      "Bytes of request frames held against queued.max.request.bytes (Kafka's MemoryPoolUsed).",
    );
  }

  /** Counts a request of `apiKey` taken up. */
  requestStarted(apiKey: number): void {
    this.series(apiKey).requests.inc();
  }

  /** Records the time from taking up a request of `apiKey` to writing its response. */
  requestFinished(apiKey: number, latencyMs: number): void {
    this.series(apiKey).latencyMs.observe(latencyMs);
  }

  /**
   * Counts a request routed to its handler by API, version and the client software the
   * connection named in ApiVersions v3+ (KIP-511): Kafka's RequestsPerSec by request and
   * version, which says which versions each client really uses. Names past the first
   * MAX_SOFTWARE_NAMES count as "other", so a client cannot grow the series without bound.
   */
  requestRouted(apiKey: number, apiVersion: number, softwareName: string | undefined): void {
    let client = softwareName ?? "unknown";
    if (!this.softwareNames.has(client)) {
      if (this.softwareNames.size < MAX_SOFTWARE_NAMES) this.softwareNames.add(client);
      else client = "other";
    }
    const key = `${apiKey}/${apiVersion}/${client}`;
    let counter = this.byVersion.get(key);
    if (counter === undefined) {
      const api = apiDefinition(apiKey)?.name ?? String(apiKey);
      const labels = { api, version: String(apiVersion), client_software_name: client };
      const help = "Requests routed to a handler, by API, version and client software.";
      counter = this.sink.counter("sluice_requests_by_version_total", help, labels);
      this.byVersion.set(key, counter);
    }
    counter.inc();
  }

  /** Counts a request of `apiKey` with bytes after its body (read and answered all the same). */
  trailingBytes(apiKey: number): void {
    let counter = this.trailing.get(apiKey);
    if (counter === undefined) {
      const labels = { api: apiDefinition(apiKey)?.name ?? String(apiKey) };
      const help = "Requests with bytes after their body, which are ignored as Kafka does.";
      counter = this.sink.counter("sluice_requests_trailing_bytes_total", help, labels);
      this.trailing.set(apiKey, counter);
    }
    counter.inc();
  }

  /** Counts a connection the broker closed. */
  connectionClosed(reason: CloseReason): void {
    let counter = this.closes.get(reason);
    if (counter === undefined) {
      const help = "Connections the broker closed, by reason.";
      counter = this.sink.counter("sluice_connections_closed_total", help, { reason });
      this.closes.set(reason, counter);
    }
    counter.inc();
  }

  private series(apiKey: number): ApiSeries {
    let series = this.byApi.get(apiKey);
    if (series === undefined) {
      const labels = { api: apiDefinition(apiKey)?.name ?? String(apiKey) };
      series = {
        requests: this.sink.counter("sluice_requests_total", "Requests taken up, by API.", labels),
        latencyMs: this.sink.histogram(
          "sluice_request_latency_ms",
          "Milliseconds from taking up a request to writing its response, by API.",
          labels,
        ),
      };
      this.byApi.set(apiKey, series);
    }
    return series;
  }
}
