import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHostPort, parseListener, parseVoter } from "./addresses.js";
import { CONFIG_DEFINITIONS } from "./definitions.js";

test("listeners read a name, an optional host (IPv6 in brackets) and a port", () => {
  assert.deepEqual(parseListener("PLAINTEXT://broker-1.example:9092"), {
    ok: true,
    value: { name: "PLAINTEXT", host: "broker-1.example", port: 9092 },
  });
  assert.deepEqual(parseListener("controller://:9093"), {
    ok: true,
    value: { name: "CONTROLLER", host: "", port: 9093 },
  });
  assert.deepEqual(parseListener("PLAINTEXT://[::1]:9092"), {
    ok: true,
    value: { name: "PLAINTEXT", host: "::1", port: 9092 },
  });
  for (const bad of ["PLAINTEXT:9092", "PLAINTEXT://host", "PLAINTEXT://host:70000", "://h:1"]) {
    assert.equal(parseListener(bad).ok, false, bad);
  }
});

test("voters are id@host:port and need a host", () => {
  assert.deepEqual(parseVoter("2@[fe80::1]:9093"), {
    ok: true,
    value: { nodeId: 2, host: "fe80::1", port: 9093 },
  });
  for (const bad of ["@h:1", "x@h:1", "1@:9093", "1@h", "1h:9093", "-1@h:1"]) {
    assert.equal(parseVoter(bad).ok, false, bad);
  }
  assert.equal(parseHostPort(":9093").ok, false);
  assert.equal(parseHostPort(":9093", true).ok, true);
});

test("every key has a description, and its default passes its own validator", () => {
  assert.equal(
    new Set(CONFIG_DEFINITIONS.map((definition) => definition.name)).size,
    CONFIG_DEFINITIONS.length,
  );
  for (const definition of CONFIG_DEFINITIONS) {
    assert.ok(definition.description.length > 10, definition.name);
    if (definition.defaultValue === null || definition.validator === undefined) continue;
    assert.equal(definition.validator.check(definition.defaultValue), undefined, definition.name);
  }
});
