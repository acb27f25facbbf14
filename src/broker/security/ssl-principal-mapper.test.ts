import { test } from "node:test";
import assert from "node:assert/strict";
import { applyMappingRules, parseMappingRules } from "./ssl-principal-mapper.js";

function mapped(rules: string, name: string): string | undefined {
  const parsed = parseMappingRules(rules);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.message);
  return applyMappingRules(parsed.value, name);
}

test("DEFAULT keeps the distinguished name as it is", () => {
  assert.equal(mapped("DEFAULT", "CN=alice,O=Sluice,C=US"), "CN=alice,O=Sluice,C=US");
});

test("the first rule whose pattern matches the whole name gives the principal", () => {
  const rules = "RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/,RULE:^CN=([a-z]+),.*$/$1/U,DEFAULT";
  assert.equal(mapped(rules, "CN=kafka,OU=ServiceUsers,O=Sluice"), "kafka");
  assert.equal(mapped(rules, "CN=alice,O=Sluice,C=US"), "ALICE");
  assert.equal(mapped(rules, "O=Nobody"), "O=Nobody");
});

test("L lower-cases; escaped slashes and newlines between rules read as in Kafka", () => {
  assert.equal(mapped("RULE:^CN=([A-Z]+)$/user\\/$1/L", "CN=BOB"), "user/bob");
  assert.equal(mapped("RULE:^CN=x$/y/\nRULE:^CN=(.*)$/$1/", "CN=z"), "z");
});

test("no matching rule gives no principal, and rules that do not parse are refused", () => {
  assert.equal(mapped("RULE:^CN=admin$/admin/", "CN=alice"), undefined);
  assert.equal(parseMappingRules("RULE:^CN=(.*$/$1/").ok, false);
  assert.equal(parseMappingRules("NONSENSE").ok, false);
});
