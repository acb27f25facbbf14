/**
 * A single Sluice node with every security protocol for the real-client tests: test
 * certificates made with `openssl` in a temporary folder (a CA, the server's certificate with
 * an encrypted key, a client certificate, and an untrusted CA's client certificate), SCRAM users
 * bootstrapped by `sluice format --add-scram`, and listeners SSL (mTLS required, a mapping rule),
 * SASL_SSL and SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) and PLAINTEXT beside the
 * controller's.
 */
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import kafkajs from "kafkajs";
import { freePort, SLUICE, withDeadline } from "./sluice-process.js";

const run = promisify(execFile);

/**
 * The openssl commands that make the test certificates: two CAs, the server's certificate
 * (localhost and 127.0.0.1) with its key encrypted as PKCS#8, alice's client certificate from
 * the trusted CA and a stranger's from the other.
 */
const CERTIFICATE_COMMANDS: readonly string[] = [
  "req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=Test-CA",
  "req -x509 -newkey rsa:2048 -nodes -keyout other-ca.key -out other-ca.pem -days 2" +
    " -subj /CN=Other",
  "req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost",
  "x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2" +
    " -extfile san.ext",
  "pkcs8 -topk8 -in server.key -out server-enc.key -passout pass:key-secret -v2 aes-256-cbc",
  "req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj /C=US/O=Sluice/CN=alice",
  "x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2",
  "req -newkey rsa:2048 -nodes -keyout stranger.key -out stranger.csr -subj /CN=stranger",
  "x509 -req -in stranger.csr -CA other-ca.pem -CAkey other-ca.key -CAcreateserial" +
    " -out stranger.pem -days 2",
];

/**
 * The settings of a cluster's TLS listeners with the certificates of `makeCertificates(dir)`,
 * and three replicas of every topic with two in sync.
 */
export function replicatedOverTls(dir: string): Record<string, string> {
  return {
    "ssl.keystore.type": "PEM",
    "ssl.truststore.type": "PEM",
    "ssl.keystore.location": join(dir, "server-keystore.pem"),
    "ssl.key.password": "key-secret",
    "ssl.truststore.location": join(dir, "ca.pem"),
    "default.replication.factor": "3",
    "min.insync.replicas": "2",
    "offsets.topic.replication.factor": "3",
  };
}

/** Makes the test certificates in `dir`, and the PEM keystore file (key, then certificate). */
export async function makeCertificates(dir: string): Promise<void> {
  writeFileSync(join(dir, "san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  for (const command of CERTIFICATE_COMMANDS) {
    await run("openssl", command.split(" "), { cwd: dir });
  }
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  writeFileSync(join(dir, "server-keystore.pem"), read("server-enc.key") + read("server.pem"));
}

export interface SecurityPorts {
  /** A PLAINTEXT listener, for the `sluice` commands, which log in with nothing. */
  readonly plaintext: number;
  readonly ssl: number;
  readonly saslSsl: number;
  readonly saslPlaintext: number;
  readonly controller: number;
  readonly http: number;
}

/** The node's server.properties: Kafka's keys as an operator writes them. */
export function securityProperties(dir: string, ports: SecurityPorts): string {
  const jaas = (users: string) =>
    `org.apache.kafka.common.security.plain.PlainLoginModule required ${users};`;
  return [
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${ports.controller}`,
    `listeners=SSL://127.0.0.1:${ports.ssl},SASL_SSL://127.0.0.1:${ports.saslSsl},` +
      `SASL_PLAINTEXT://127.0.0.1:${ports.saslPlaintext},` +
      `PLAINTEXT://127.0.0.1:${ports.plaintext},CONTROLLER://127.0.0.1:${ports.controller}`,
    `advertised.listeners=SSL://127.0.0.1:${ports.ssl},SASL_SSL://127.0.0.1:${ports.saslSsl},` +
      `SASL_PLAINTEXT://127.0.0.1:${ports.saslPlaintext},PLAINTEXT://127.0.0.1:${ports.plaintext}`,
    "controller.listener.names=CONTROLLER",
    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,SSL:SSL,SASL_SSL:SASL_SSL," +
      "SASL_PLAINTEXT:SASL_PLAINTEXT,PLAINTEXT:PLAINTEXT",
    "inter.broker.listener.name=SASL_PLAINTEXT",
    "sasl.mechanism.inter.broker.protocol=PLAIN",
    "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
    "listener.name.sasl_plaintext.plain.sasl.jaas.config=" +
      jaas(
        'username="admin" password="admin-secret" user_admin="admin-secret"' +
          ' user_bob="bob-secret"',
      ),
    `listener.name.sasl_ssl.plain.sasl.jaas.config=${jaas('user_bob="bob-secret"')}`,
    "ssl.keystore.type=PEM",
    "ssl.truststore.type=PEM",
    `ssl.keystore.location=${join(dir, "server-keystore.pem")}`,
    "ssl.key.password=key-secret",
    `ssl.truststore.location=${join(dir, "ca.pem")}`,
    "listener.name.ssl.ssl.client.auth=required",
    "listener.name.ssl.ssl.principal.mapping.rules=RULE:^CN=([a-z]+),.*$/$1/U,DEFAULT",
    `log.dirs=${join(dir, "data")}`,
    `sluice.http.listener=127.0.0.1:${ports.http}`,
    "",
  ].join("\n");
}

/** The node: formatted with SCRAM users alice (SHA-512) and carol (SHA-256), then started. */
export class SecurityNode {
  private child: ChildProcess | undefined;
  private output = "";

  private constructor(
    readonly dir: string,
    readonly ports: SecurityPorts,
  ) {}

  /** Starts the node; `properties` replaces securityProperties when given. */
  static async start(
    properties: (dir: string, ports: SecurityPorts) => string = securityProperties,
  ): Promise<SecurityNode> {
    const dir = mkdtempSync(join(tmpdir(), "sluice-security-"));
    const ports = {
      plaintext: await freePort(),
      ssl: await freePort(),
      saslSsl: await freePort(),
      saslPlaintext: await freePort(),
      controller: await freePort(),
      http: await freePort(),
    };
    const node = new SecurityNode(dir, ports);
    await makeCertificates(dir);
    writeFileSync(join(dir, "server.properties"), properties(dir, ports));
    const { stdout } = await run(process.execPath, [SLUICE, "random-uuid"]);
    await run(process.execPath, [
      SLUICE,
      "format",
      "--config",
      join(dir, "server.properties"),
      "--cluster-id",
      stdout.trim(),
      "--add-scram",
      "SCRAM-SHA-512=[name=alice,password=alice-secret]",
      "--add-scram",
      "SCRAM-SHA-256=[name=carol,password=carol-secret]",
    ]);
    await node.run();
    return node;
  }

  /** Everything the process wrote so far. */
  get log(): string {
    return this.output;
  }

  get isRunning(): boolean {
    return this.child !== undefined && this.child.exitCode === null;
  }

  file(name: string): string {
    return join(this.dir, name);
  }

  private async run(): Promise<void> {
    const child = spawn(
      process.execPath,
      [SLUICE, "start", "--config", this.file("server.properties")],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    this.child = child;
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        this.output += chunk.toString();
        if (this.output.includes("Sluice listening on")) resolve();
      });
      child.stderr.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
      child.once("exit", (code) =>
        reject(new Error(`sluice exited with ${code}:\n${this.output}`)),
      );
    });
    await withDeadline(listening, 60_000, () => `no listening line:\n${this.output}`);
  }

  /** Kills the node and removes its folder. */
  async destroy(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    assert.ok(this.dir.includes("sluice-security-"));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A kafkajs admin's SCRAM-SHA-512 login on the SASL_PLAINTEXT listener at `port`, one try. */
export async function scramLogin(port: number, username: string, password: string) {
  const kafka = new kafkajs.Kafka({
    brokers: [`127.0.0.1:${port}`],
    logLevel: kafkajs.logLevel.NOTHING,
    retry: { retries: 0 },
    sasl: { mechanism: "scram-sha-512", username, password },
  });
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.describeCluster();
  } finally {
    await admin.disconnect();
  }
}
