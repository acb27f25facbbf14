/**
 * An SSL listener on a real socket whose key, certificate chain and trusted certificates are
 * PEM text in the config values (`ssl.keystore.key`, `ssl.keystore.certificate.chain`,
 * `ssl.truststore.certificates`, as Kafka 2.7+ takes them inline), with
 * `ssl.client.auth=requested`: a client with a trusted certificate is the principal its subject
 * maps to through `ssl.principal.mapping.rules`, one without a certificate or with an untrusted
 * one is User:ANONYMOUS, and a trusted subject no rule maps is refused. The handler under test
 * answers DescribeCluster with the connection's principal as the cluster id.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NodeFileSystem, NodeNetwork, NodeTimers, SystemClock } from "../../src/adapters/index.js";
import {
  RequestRouter,
  SocketServer,
  defineHandler,
  principalText,
  registerApiVersions,
  respond,
} from "../../src/broker/index.js";
import { withConnection } from "../../src/client/index.js";
import type { Address, TlsClientSettings } from "../../src/ports/index.js";
import { ApiKey, describeCluster } from "../../src/protocol/index.js";
import { loadNodeConfig } from "../../src/main/config/load-config.js";
import { SINGLE_NODE_PRESET } from "../../src/main/config/single-node.js";
import { listenerOptionsOf } from "../../src/main/node-security.js";
import { MemoryLogger, MemoryMetrics } from "../../src/broker/network/test-doubles.test-support.js";
import { makeCertificates } from "../clients/security-node.js";
import { clientPorts } from "../clients/sluice-process.js";

let dir: string;
let server: SocketServer;
let address: Address;
const read = (name: string) => readFileSync(join(dir, name), "utf8");

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "sluice-tls-auth-"));
  await makeCertificates(dir);
  const loaded = loadNodeConfig({
    base: SINGLE_NODE_PRESET,
    flags: [
      "listeners=SSL://127.0.0.1:0,CONTROLLER://127.0.0.1:9093",
      "advertised.listeners=SSL://127.0.0.1:9092",
      "listener.security.protocol.map=SSL:SSL,CONTROLLER:PLAINTEXT",
      "inter.broker.listener.name=SSL",
      "ssl.keystore.type=PEM",
      "ssl.truststore.type=PEM",
      `ssl.keystore.key=${read("server-enc.key")}`,
      "ssl.key.password=key-secret",
      `ssl.keystore.certificate.chain=${read("server.pem")}`,
      `ssl.truststore.certificates=${read("ca.pem")}`,
      "ssl.client.auth=requested",
      // No DEFAULT: a subject the rule does not match is refused, as Kafka's mapper refuses it.
      "ssl.principal.mapping.rules=RULE:^CN=([a-z]+),.*$/$1/U",
    ],
    environment: {},
  });
  assert.equal(loaded.kind, "valid", JSON.stringify(loaded));
  if (loaded.kind !== "valid") return;
  const logger = new MemoryLogger();
  const router = new RequestRouter({ logger });
  registerApiVersions(router);
  router.register(
    defineHandler(ApiKey.DescribeCluster, {
      minVersion: 0,
      maxVersion: 1,
      handle: (_request, context) =>
        respond({ clusterId: principalText(context.connection.principal) }),
    }),
  );
  const network = new NodeNetwork();
  const ports = { network, clock: new SystemClock(), timers: new NodeTimers(), logger };
  server = new SocketServer({ ...ports, metrics: new MemoryMetrics() }, router);
  const options = await listenerOptionsOf(new NodeFileSystem(), loaded.config, "SSL");
  address = await server.listen("SSL", { host: "127.0.0.1", port: 0 }, options);
});

after(async () => {
  await server.close();
  assert.ok(dir.includes("sluice-tls-auth-"));
  rmSync(dir, { recursive: true, force: true });
});

/** The principal the listener gives a client with `tls`, or the failure's kind. */
async function principalWith(tls: Omit<TlsClientSettings, "verifyHostname">): Promise<string> {
  const result = await withConnection(
    address,
    clientPorts(),
    (connection) => connection.send(describeCluster, { includeClusterAuthorizedOperations: false }),
    {
      requestTimeoutMs: 10_000,
      security: { tls: { trustedCertificates: read("ca.pem"), verifyHostname: true, ...tls } },
    },
  );
  return result.kind === "response" ? result.body.clusterId : result.kind;
}

test("a trusted client certificate is the principal its subject maps to", async () => {
  const alice = { key: read("client.key"), certificateChain: read("client.pem") };
  assert.equal(await principalWith(alice), "User:ALICE");
});

test("without a certificate, or with an untrusted one, the client is ANONYMOUS", async () => {
  assert.equal(await principalWith({}), "User:ANONYMOUS");
  const stranger = { key: read("stranger.key"), certificateChain: read("stranger.pem") };
  assert.equal(await principalWith(stranger), "User:ANONYMOUS");
});

test("a trusted subject that no mapping rule matches is refused, others are served", async () => {
  // The server's own certificate, CN=localhost: trusted, but the rule wants CN=name,...
  const unmapped = { key: read("server.key"), certificateChain: read("server.pem") };
  assert.equal(await principalWith(unmapped), "disconnected");
  const alice = { key: read("client.key"), certificateChain: read("client.pem") };
  assert.equal(await principalWith(alice), "User:ALICE");
});
