import type { Counter, Gauge, Histogram, MetricsSink } from "../../ports/index.js";
import { apiDefinition } from "../../protocol/index.js";

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
  | "shutdown";

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
  private readonly byApi = new Map<number, ApiSeries>();
  private readonly closes = new Map<CloseReason, Counter>();
  private readonly trailing = new Map<number, Counter>();

  constructor(private readonly sink: MetricsSink) {
    this.bytesIn = sink.counter("sluice_network_bytes_in_total", "Bytes received from clients.");
    this.bytesOut = sink.counter("sluice_network_bytes_out_total", "Bytes sent to clients.");
    this.openConnections = sink.gauge("sluice_connections_open", "Open client connections.");
  }

  /** Counts a request of `apiKey` taken up. */
  requestStarted(apiKey: number): void {
    this.series(apiKey).requests.inc();
  }

  /** Records the time from taking up a request of `apiKey` to writing its response. */
  requestFinished(apiKey: number, latencyMs: number): void {
    this.series(apiKey).latencyMs.observe(latencyMs);
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
