import type { Socket } from "node:net";
import {
  connect as connectTls,
  createSecureContext,
  createServer as createTlsServer,
  type SecureContext,
  type TLSSocket,
} from "node:tls";
import type {
  Address,
  Connection,
  Logger,
  TlsClientSettings,
  TlsServerSettings,
} from "../ports/index.js";
import { NodeConnection } from "./node-connection.js";

/** The key, certificates and trusted certificates of `settings` as node:tls names them. */
export function serverContextOptions(settings: TlsServerSettings) {
  return {
    key: settings.key,
    cert: settings.certificateChain,
    ...(settings.keyPassword === undefined ? {} : { passphrase: settings.keyPassword }),
    ...(settings.trustedCertificates === undefined ? {} : { ca: settings.trustedCertificates }),
  };
}

/** The secure context of a listener's settings; throws when the key or a certificate is bad. */
export function serverContext(settings: TlsServerSettings): SecureContext {
  return createSecureContext(serverContextOptions(settings));
}

/**
 * A TLS server whose connections reach `onConnection` only after a completed handshake. A peer
 * that does not speak TLS or presents a certificate the listener refuses is logged and dropped.
 */
export function tlsServer(
  settings: TlsServerSettings,
  onConnection: (connection: Connection) => void,
  logger: Logger | undefined,
) {
  // Loading the context first throws on a bad key or certificate before anything listens.
  serverContext(settings);
  const server = createTlsServer({
    ...serverContextOptions(settings),
    requestCert: settings.clientAuth !== "none",
    rejectUnauthorized: settings.clientAuth === "required",
    noDelay: true,
  });
  server.on("secureConnection", (socket: TLSSocket) => {
    // With ssl.client.auth=requested an unverified certificate is not refused, but it names no
    // principal: only a certificate the trusted certificates verified does.
    const subject = socket.authorized ? peerSubjectOf(socket) : undefined;
    onConnection(new NodeConnection(socket, { peerSubject: subject }));
  });
  server.on("tlsClientError", (error: Error, socket: Socket) => {
    logger?.info("TLS handshake failed", {
      remote: `${socket.remoteAddress ?? ""}:${socket.remotePort ?? 0}`,
      error: error.message,
    });
    socket.destroy();
  });
  return server;
}

/** Connects with TLS; resolves once the handshake completed and the server was verified. */
export function connectWithTls(address: Address, settings: TlsClientSettings): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connectTls({
      host: address.host,
      port: address.port,
      ...(settings.trustedCertificates === undefined ? {} : { ca: settings.trustedCertificates }),
      ...(settings.key === undefined ? {} : { key: settings.key }),
      ...(settings.keyPassword === undefined ? {} : { passphrase: settings.keyPassword }),
      ...(settings.certificateChain === undefined ? {} : { cert: settings.certificateChain }),
      ...(isIpAddress(address.host) ? {} : { servername: settings.serverName ?? address.host }),
      ...(settings.verifyHostname ? {} : { checkServerIdentity: () => undefined }),
    });
    socket.once("error", reject);
    socket.once("secureConnect", () => {
      socket.off("error", reject);
      resolve(new NodeConnection(socket, { peerSubject: peerSubjectOf(socket) }));
    });
  });
}

function isIpAddress(host: string): boolean {
  return /^[0-9.]+$/.test(host) || host.includes(":");
}

/**
 * The peer certificate's subject as RFC 2253 prints it: Node lists the attributes from the
 * most general (C) to the most specific (CN), one per line; RFC 2253 reverses that order and
 * joins with commas, escaping the characters it reserves.
 */
function peerSubjectOf(socket: TLSSocket): string | undefined {
  const certificate = socket.getPeerX509Certificate();
  if (certificate === undefined) return undefined;
  return rfc2253Of(certificate.subject);
}

/** Node's line-per-attribute subject as an RFC 2253 name. */
export function rfc2253Of(subject: string): string {
  return subject
    .split("\n")
    .filter((line) => line !== "")
    .reverse()
    .map((line) => {
      const equals = line.indexOf("=");
      return `${line.slice(0, equals)}=${escapeRfc2253(line.slice(equals + 1))}`;
    })
    .join(",");
}

function escapeRfc2253(value: string): string {
  const escaped = value.replace(/[,+"\\<>;]/g, (character) => `\\${character}`);
  return escaped.replace(/^[ #]/, (character) => `\\${character}`).replace(/ $/, "\\ ");
}
