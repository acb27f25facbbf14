/**
 * Kafka's RequestMetrics (kafka.network:type=RequestMetrics) under the names the JMX exporter's
 * Kafka rules give them (docs/decisions/0009-kafka-metric-names.md): RequestsPerSec by request
 * and version, ErrorsPerSec by request and error name, and the request's time and its parts as
 * histograms in milliseconds by request. `request` is Kafka's name of the API, with Fetch split
 * into FetchConsumer and FetchFollower as Kafka splits it.
 */
import { errorName } from "../../common/index.js";
import type { Counter, Histogram, MetricsSink } from "../../ports/index.js";
import type { RequestTimes, RequestTiming } from "./request-timing.js";

/** The histogram families: our part's name, Kafka's name and what it measures. */
const PARTS: readonly (readonly [keyof RequestTimes, string, string])[] = [
  ["totalMs", "TotalTimeMs", "from the frame read whole to the response sent"],
  ["requestQueueMs", "RequestQueueTimeMs", "waiting in the connection's queue to be taken up"],
  ["localMs", "LocalTimeMs", "handled by this node"],
  ["remoteMs", "RemoteTimeMs", "waiting for others: the purgatory, the controller"],
  ["responseQueueMs", "ResponseQueueTimeMs", "answered, waiting for earlier responses"],
  ["responseSendMs", "ResponseSendTimeMs", "being sent, until the socket's buffer took it"],
  ["throttleMs", "ThrottleTimeMs", "throttled for a quota after its answer (connection muted)"],
];

const nameOf = (kafkaName: string): string =>
  `kafka_network_requestmetrics_${kafkaName.toLowerCase()}`;

export class RequestMetrics {
  private readonly requests = new Map<string, Counter>();
  private readonly errors = new Map<string, Counter>();
  private readonly times = new Map<string, readonly (readonly [keyof RequestTimes, Histogram])[]>();

  constructor(private readonly sink: MetricsSink) {}

  /** Counts a request taken up for its handler (Kafka's RequestsPerSec). */
  requestTakenUp(request: string, version: number): void {
    const key = `${request}/${version}`;
    let counter = this.requests.get(key);
    if (counter === undefined) {
      const help =
        "Requests taken up, by request and version " +
        "(Kafka's kafka.network:type=RequestMetrics,name=RequestsPerSec).";
      const labels = { request, version: String(version) };
      counter = this.sink.counter(`${nameOf("Requests")}_total`, help, labels);
      this.requests.set(key, counter);
    }
    counter.inc();
  }

  /** Counts the error codes of a response, NONE included (Kafka's ErrorsPerSec). */
  responseErrors(request: string, errorCounts: ReadonlyMap<number, number>): void {
    for (const [code, count] of errorCounts) {
      const error = errorName(code);
      const key = `${request}/${error}`;
      let counter = this.errors.get(key);
      if (counter === undefined) {
        const help =
          "Error codes in responses, NONE included, by request and error " +
          "(Kafka's kafka.network:type=RequestMetrics,name=ErrorsPerSec).";
        counter = this.sink.counter(`${nameOf("Errors")}_total`, help, { request, error });
        this.errors.set(key, counter);
      }
      counter.inc(count);
    }
  }

  /**
   * Observes the time of a request whose response had its turn at `writtenMs` and was taken by
   * the socket at `sentMs`, and each of its parts.
   */
  responseSent(
    timing: RequestTiming,
    at: { readonly writtenMs: number; readonly sentMs: number },
  ): void {
    const { request } = timing;
    const parts = timing.partsAt(at);
    let histograms = this.times.get(request);
    if (histograms === undefined) {
      histograms = PARTS.map(([part, kafkaName, what]) => {
        const help =
          `Milliseconds a request spent ${what}, by request ` +
          `(Kafka's kafka.network:type=RequestMetrics,name=${kafkaName}).`;
        return [part, this.sink.histogram(nameOf(kafkaName), help, { request })] as const;
      });
      this.times.set(request, histograms);
    }
    for (const [part, histogram] of histograms) histogram.observe(parts[part]);
  }
}
