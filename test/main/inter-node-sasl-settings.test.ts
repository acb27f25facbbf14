/**
 * The SASL mechanisms a node logs in with to the inter-broker and controller listeners, read as
 * Kafka reads them: `sasl.mechanism.inter.broker.protocol` and
 * `sasl.mechanism.controller.protocol` name the mechanism, whose JAAS entry on that listener
 * (PlainLoginModule or ScramLoginModule) gives `username` and `password`. SCRAM on the
 * controller listener of a quorum of several controllers is refused: they could not log in to
 * each other before a credential is committed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadNodeConfig } from "../../src/main/config/load-config.js";
import { SINGLE_NODE_PRESET } from "../../src/main/config/single-node.js";

const scram = (user: string) =>
  "org.apache.kafka.common.security.scram.ScramLoginModule required " +
  `username="${user}" password="${user}-secret";`;

const SECURED = [
  "listener.security.protocol.map=PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
  "sasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512",
  "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256",
  "sasl.mechanism.controller.protocol=SCRAM-SHA-512",
  `listener.name.plaintext.scram-sha-256.sasl.jaas.config=${scram("broker")}`,
  `listener.name.controller.scram-sha-512.sasl.jaas.config=${scram("controller")}`,
];

function load(flags: readonly string[]) {
  return loadNodeConfig({ base: SINGLE_NODE_PRESET, flags, environment: {} });
}

test("SCRAM logins between nodes take the listener's ScramLoginModule credentials", () => {
  const loaded = load(SECURED);
  assert.equal(loaded.kind, "valid", JSON.stringify(loaded));
  if (loaded.kind !== "valid") return;
  assert.deepEqual(loaded.config.security.interBroker?.sasl, {
    mechanism: "SCRAM-SHA-256",
    username: "broker",
    password: "broker-secret",
  });
  assert.deepEqual(loaded.config.security.controller.sasl, {
    mechanism: "SCRAM-SHA-512",
    username: "controller",
    password: "controller-secret",
  });
});

test("a missing or incomplete JAAS entry and an unserved mechanism are refused by key", () => {
  // PLAIN offered without its PlainLoginModule entry: a problem naming the entry, not a crash.
  const noEntry = load([...SECURED, "listener.name.controller.sasl.enabled.mechanisms=PLAIN"]);
  assert.ok(
    noEntry.kind === "invalid" &&
      noEntry.problems.some(
        (problem) => problem.key === "listener.name.controller.plain.sasl.jaas.config",
      ),
    JSON.stringify(noEntry),
  );
  const noUser = load([
    ...SECURED.filter((flag) => !flag.startsWith("listener.name.plaintext.")),
    "listener.name.plaintext.scram-sha-256.sasl.jaas.config=" +
      "org.apache.kafka.common.security.scram.ScramLoginModule required;",
  ]);
  assert.equal(noUser.kind, "invalid");
  assert.ok(
    noUser.kind === "invalid" &&
      noUser.problems.some(
        (problem) =>
          problem.key === "listener.name.plaintext.scram-sha-256.sasl.jaas.config" &&
          /needs username and password/.test(problem.message),
      ),
    JSON.stringify(noUser),
  );
  const gssapi = load([
    ...SECURED.filter((flag) => !flag.startsWith("sasl.mechanism.inter.broker.protocol")),
    "sasl.mechanism.inter.broker.protocol=GSSAPI",
  ]);
  assert.ok(
    gssapi.kind === "invalid" &&
      gssapi.problems.some((problem) => problem.key === "sasl.mechanism.inter.broker.protocol"),
    JSON.stringify(gssapi),
  );
});

test("SCRAM on the controller listener of a quorum of three controllers is refused", () => {
  const voters = "controller.quorum.voters=1@127.0.0.1:9093,2@127.0.0.1:9095,3@127.0.0.1:9097";
  const quorum = load([...SECURED, voters]);
  assert.ok(
    quorum.kind === "invalid" &&
      quorum.problems.some(
        (problem) =>
          problem.key === "sasl.mechanism.controller.protocol" &&
          /use PLAIN on the controller listener/.test(problem.message),
      ),
    JSON.stringify(quorum),
  );
  const broker = load(
    [...SECURED, voters, "process.roles=broker", "node.id=4"].concat([
      "listeners=PLAINTEXT://127.0.0.1:9092",
    ]),
  );
  assert.equal(broker.kind, "valid", JSON.stringify(broker));
});
