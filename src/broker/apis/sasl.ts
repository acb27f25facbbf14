/**
 * SaslHandshake (17, v0-1) and SaslAuthenticate (36, v0-2), served on every listener as Kafka
 * serves them. On a SASL listener they drive the connection's SaslSession; elsewhere, and on a
 * connection already authenticated (without KIP-368 re-authentication), the answer is
 * ILLEGAL_SASL_STATE, which is what Kafka's KafkaApis answers when these requests reach it.
 */
import { ErrorCode } from "../../common/index.js";
import { ApiKey } from "../../protocol/index.js";
import { defineHandler, respond, type ApiHandler } from "../router/handler.js";
import type { RequestRouter } from "../router/request-router.driver.js";

export const SASL_HANDSHAKE_VERSIONS = { minVersion: 0, maxVersion: 1 } as const;
export const SASL_AUTHENTICATE_VERSIONS = { minVersion: 0, maxVersion: 2 } as const;

const EMPTY = new Uint8Array(0);

export const saslHandshakeHandler: ApiHandler<typeof ApiKey.SaslHandshake> = defineHandler(
  ApiKey.SaslHandshake,
  {
    ...SASL_HANDSHAKE_VERSIONS,
    authorization: { kind: "none" },
    handle: (request, context) => {
      if (context.sasl === undefined) {
        return respond({ errorCode: ErrorCode.ILLEGAL_SASL_STATE, mechanisms: [] });
      }
      const answer = context.sasl.handshake(context.header.apiVersion, request.mechanism);
      return respond({ errorCode: answer.errorCode, mechanisms: [...answer.mechanisms] });
    },
  },
);

export const saslAuthenticateHandler: ApiHandler<typeof ApiKey.SaslAuthenticate> = defineHandler(
  ApiKey.SaslAuthenticate,
  {
    ...SASL_AUTHENTICATE_VERSIONS,
    authorization: { kind: "none" },
    handle: (request, context) => {
      if (context.sasl === undefined) {
        return respond({
          errorCode: ErrorCode.ILLEGAL_SASL_STATE,
          errorMessage: "SaslAuthenticate request received after successful authentication",
          authBytes: EMPTY,
          sessionLifetimeMs: 0,
        });
      }
      const answer = context.sasl.authenticate(request.authBytes);
      return respond({ ...answer });
    },
  },
);

/** Registers both SASL APIs on `router`. */
export function registerSaslApis(router: RequestRouter): void {
  router.register(saslHandshakeHandler);
  router.register(saslAuthenticateHandler);
}
