/**
 * Forwarding of admin requests to the active controller (Kafka's ForwardingManager). Kafka wraps
 * the client's request in an Envelope so that the controller sees the client's principal and the
 * original version; Sluice forwards the decoded body itself, at the version the client used:
 * controllers and brokers are the same code and serve the same versions, so the controller's
 * answer can be relayed to the client unchanged, with no translation between versions. What that
 * costs is the principal: the controller sees the broker, so authorization of forwarded requests
 * happens on the broker before forwarding, and the controller serves brokers as super users.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { ApiCodec, MessageInput } from "../../protocol/index.js";
import type { ShownBy } from "../apis/forwarder.js";
import type { ControllerChannel } from "./controller-channel.driver.js";

/** The controller's answer to relay, or the error code to answer the client with. */
export type ForwardResult<Response> =
  | { readonly kind: "response"; readonly body: Response }
  | { readonly kind: "failed"; readonly errorCode: number; readonly message: string };

/** Sends clients' admin requests to the active controller and hands back its answers. */
export class ControllerForwarder {
  constructor(
    private readonly channel: ControllerChannel,
    private readonly options: {
      readonly requestTimeoutMs: number;
      /**
       * Waits, after the controller answered, until this broker serves what the controller had
       * committed by then as far as it knows (see MetadataCache.reachOffset) and, when given,
       * until its image `shows` the answer's effect: this node may learn of the commit after
       * the answer arrives. Answers wait for it.
       */
      readonly awaitLocalMetadata?: (shows?: (image: MetadataImage) => boolean) => Promise<void>;
    },
  ) {}

  /**
   * Forwards `body` at `apiVersion`, retrying on other controllers (NOT_CONTROLLER, lost
   * connections) until the deadline: the request's own `timeoutMs` field when it has a positive
   * one (CreateTopics, DeleteTopics, CreatePartitions, ElectLeaders and the reassignment APIs),
   * else `request.timeout.ms`. Past it the result is REQUEST_TIMED_OUT, as Kafka answers.
   */
  async forward<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    apiVersion: number,
    body: MessageInput<Request>,
    shownBy?: ShownBy<Response>,
  ): Promise<ForwardResult<Response>> {
    const timeoutMs = requestTimeoutOf(body) ?? this.options.requestTimeoutMs;
    const result = await this.channel.send(api, body, {
      timeoutMs,
      minVersion: apiVersion,
      maxVersion: apiVersion,
    });
    if (result.kind !== "response") return result;
    const response = result.body;
    await this.options.awaitLocalMetadata?.(
      shownBy === undefined ? undefined : (image) => shownBy(response, image),
    );
    return { kind: "response", body: result.body };
  }
}

/** The request's own `timeoutMs`, when it carries a positive one. */
function requestTimeoutOf(body: object): number | undefined {
  const value = "timeoutMs" in body ? body.timeoutMs : undefined;
  return typeof value === "number" && value > 0 ? value : undefined;
}
