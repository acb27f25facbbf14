import { test } from "node:test";
import assert from "node:assert/strict";
import { compileTopicRegex } from "./topic-regex.js";

function matches(pattern: string, topicName: string): boolean {
  const compiled = compileTopicRegex(pattern);
  assert.equal(compiled.kind, "valid", `${pattern} should compile`);
  return compiled.kind === "valid" && compiled.matches(topicName);
}

function refusal(pattern: string): string {
  const compiled = compileTopicRegex(pattern);
  assert.equal(compiled.kind, "invalid", `${pattern} should be refused`);
  return compiled.kind === "invalid" ? compiled.description : "";
}

test("a topic regex matches whole topic names, as RE2/J's matches() does", () => {
  assert.equal(matches("orders-.*", "orders-eu"), true);
  assert.equal(matches("orders-.*", "old-orders-eu"), false);
  assert.equal(matches("orders", "orders-eu"), false);
  assert.equal(matches("a|b", "b"), true);
  assert.equal(matches("a|b", "ab"), false);
  assert.equal(matches("t\\d{2,3}", "t123"), true);
  assert.equal(matches("t\\d{2,3}", "t1234"), false);
});

test("RE2 forms JavaScript spells otherwise are translated", () => {
  assert.equal(matches("\\Qa.b\\E.*", "a.b-x"), true);
  assert.equal(matches("\\Qa.b\\E", "aXb"), false);
  assert.equal(matches("\\Aab\\z", "ab"), true);
  assert.equal(matches("[[:digit:]]+-[[:alpha:]_]+", "12-ab_c"), true);
  assert.equal(matches("[[:upper:]]", "a"), false);
  assert.equal(matches("(?P<region>eu|us)-orders", "eu-orders"), true);
  assert.equal(matches("\\pL+", "orders"), true);
  assert.equal(matches("\\p{Greek}+", "αβ"), true);
  assert.equal(matches("\\x{61}\\x62", "ab"), true);
  assert.equal(matches("\\056", "."), true);
  assert.equal(matches("a\\-b", "a-b"), true);
  assert.equal(matches("[]a]+", "]a"), true);
  assert.equal(matches("a{x}", "a{x}"), true);
  assert.equal(matches("a}", "a}"), true);
});

test("flags that cannot change a whole-name match are accepted; a leading (?i) folds case", () => {
  assert.equal(matches("(?i)orders", "ORDERS"), true);
  assert.equal(matches("orders", "ORDERS"), false);
  assert.equal(matches("(?s)a.b", "a.b"), true);
  assert.equal(matches("(?U)a.*b", "axxb"), true);
  assert.equal(matches("(?m:^a$)", "a"), true);
  assert.match(refusal("a(?i)b"), /flag i/);
  assert.match(refusal("(?i:a)"), /flag i/);
});

test("what RE2 lacks or forbids is refused", () => {
  assert.match(refusal("(a)\\1"), /invalid escape sequence: `\\1`/);
  assert.match(refusal("(?=a)a"), /invalid or unsupported Perl syntax/);
  assert.match(refusal("(?<!a)b"), /invalid or unsupported Perl syntax/);
  assert.match(refusal("(?>a)"), /invalid or unsupported Perl syntax/);
  assert.match(refusal("(?x)a"), /invalid or unsupported Perl syntax/);
  assert.match(refusal("a{1001}"), /invalid repeat count/);
  assert.match(refusal("\\k"), /invalid escape sequence/);
  assert.match(refusal("[a"), /missing closing \]/);
  assert.match(refusal("[[:nope:]]"), /invalid character class range/);
  assert.match(refusal("a\\"), /trailing backslash/);
  refusal("*a");
  refusal("a**");
  refusal("(a");
  refusal("a)");
});
