/**
 * The authorizer before its initial load, as Kafka's StandardAuthorizer: a controller that has
 * not read the metadata log up to the high watermark (one of two voters, the other not started,
 * so no leader and no high watermark) answers a request that needs a decision with
 * UNKNOWN_SERVER_ERROR, except for super users; with allow.everyone.if.no.acl.found=true its
 * still empty ACLs would otherwise let anyone in. Once the quorum has a leader and the node has
 * caught up, the same request is decided by the ACLs. Two controller processes, the project's
 * client over SASL/PLAIN on the wire. `sluice quorum describe` logs in with --command-config.
 */
import { writeFileSync } from "node:fs";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { describeCluster } from "../../src/protocol/index.js";
import {
  ClusterNode,
  killAll,
  pollUntil,
  sluice,
  temporaryDir,
} from "../cluster/cluster-process.js";
import { clientPorts, freePort } from "./sluice-process.js";

after(killAll);

const JAAS =
  "org.apache.kafka.common.security.plain.PlainLoginModule required " +
  'username="admin" password="admin-secret" user_admin="admin-secret" user_bob="bob-secret";';
const ADMIN = { username: "admin", password: "admin-secret" } as const;
const BOB = { username: "bob", password: "bob-secret" } as const;

/** DescribeCluster (ALTER on the cluster, on a controller) as `login`; its error code. */
async function describeClusterAs(
  port: number,
  login: { readonly username: string; readonly password: string },
): Promise<number> {
  const security = { sasl: { mechanism: "PLAIN", ...login } } as const;
  const body = { includeClusterAuthorizedOperations: false, endpointType: 2 };
  const answer = await withConnection(
    { host: "127.0.0.1", port },
    clientPorts(),
    (connection) => connection.send(describeCluster, body),
    { requestTimeoutMs: 15_000, security },
  );
  assert.ok(answer.kind === "response", JSON.stringify(answer));
  return answer.body.errorCode;
}

test("a controller that has not loaded the metadata log authorizes super users only", async () => {
  const ports = [await freePort(), await freePort()];
  const voters = ports.map((port, index) => `${index + 1}@127.0.0.1:${port}`).join(",");
  const dir = temporaryDir("acl-not-ready");
  const nodes = ports.map((port, index) => {
    const node = new ClusterNode(`n${index + 1}`, `${dir}/n${index + 1}`);
    node.writeConfig({
      "process.roles": "controller",
      "node.id": String(index + 1),
      "controller.quorum.voters": voters,
      listeners: `CONTROLLER://127.0.0.1:${port}`,
      "controller.listener.names": "CONTROLLER",
      "listener.security.protocol.map": "CONTROLLER:SASL_PLAINTEXT",
      "sasl.enabled.mechanisms": "PLAIN",
      "sasl.mechanism.controller.protocol": "PLAIN",
      "listener.name.controller.plain.sasl.jaas.config": JAAS,
      "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
      "super.users": "User:admin",
      "allow.everyone.if.no.acl.found": "true",
      "sluice.http.listener": "127.0.0.1:0",
    });
    return node;
  });
  const clusterId = (await sluice(["random-uuid"])).trim();
  for (const node of nodes) await node.format(clusterId);
  const [first, second] = nodes as [ClusterNode, ClusterNode];
  const port = ports[0] as number;

  await first.start();
  assert.equal(await describeClusterAs(port, BOB), ErrorCode.UNKNOWN_SERVER_ERROR);
  assert.equal(await describeClusterAs(port, ADMIN), ErrorCode.NONE);
  assert.match(first.log, /a request came before the authorizer loaded the ACLs.*User:bob/);
  assert.doesNotMatch(first.log, /level=error/);

  await second.start();
  await pollUntil(
    async () => ((await describeClusterAs(port, BOB)) === ErrorCode.NONE ? true : undefined),
    { deadlineMs: 60_000, intervalMs: 200, what: "bob decided by the (empty) ACLs" },
  );

  // The quorum commands log in to the SASL controller listener with --command-config.
  const commandConfig = `${dir}/admin.properties`;
  writeFileSync(
    commandConfig,
    "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n" +
      "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required " +
      'username="admin" password="admin-secret";\n',
  );
  const target = ["--bootstrap-controller", `127.0.0.1:${port}`];
  const described = await sluice([
    "quorum",
    "describe",
    ...target,
    "--status",
    "--command-config",
    commandConfig,
  ]);
  assert.match(described, new RegExp(`ClusterId:\\s+${clusterId}`));
  assert.match(described, /LeaderId:\s+[12]\b/);
  await assert.rejects(sluice(["quorum", "describe", ...target]), "a plain login is refused");
});
