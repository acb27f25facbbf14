/**
 * What the admin handlers need from the forwarding layer: send a client's request, decoded, at
 * its own version, to the active controller and hand back the answer or the error to give.
 * src/broker/forwarding's ControllerForwarder has exactly this shape; the handlers depend on
 * the interface so that they can be tested without a controller.
 */
import type { MetadataImage } from "../../metadata/index.js";
import type { ApiCodec, MessageInput } from "../../protocol/index.js";

/** The controller's answer to relay, or the error code to answer the client with. */
export type ForwardOutcome<Response> =
  | { readonly kind: "response"; readonly body: Response }
  | { readonly kind: "failed"; readonly errorCode: number; readonly message: string };

/**
 * Whether this broker's metadata image shows what the controller's answer reports done (the
 * topics a CreateTopics created, say), so that the answer waits until the broker serves it.
 */
export type ShownBy<Response> = (response: Response, image: MetadataImage) => boolean;

/** Sends admin requests to the active controller. */
export interface Forwarder {
  forward<Request extends object, Response extends object>(
    api: ApiCodec<Request, Response>,
    apiVersion: number,
    body: MessageInput<Request>,
    shownBy?: ShownBy<Response>,
  ): Promise<ForwardOutcome<Response>>;
}
