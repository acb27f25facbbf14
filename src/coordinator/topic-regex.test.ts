import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
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
});

test("an i flag past the start folds case in its part of the pattern, as RE2's does", () => {
  const cases: [pattern: string, matched: string[], unmatched: string[]][] = [
    ["a(?i)b", ["aB", "ab"], ["AB"]],
    ["(?i:a)b", ["Ab"], ["AB"]],
    // The flag ends with its group.
    ["(a(?i)b)c", ["aBc"], ["aBC"]],
    ["x(?i:or(?-i:d)er)s", ["xORdERs"], ["xORDERs"]],
    ["(?i)a(?-i)b", ["Ab"], ["AB"]],
    ["x(?i:[a-c]+)", ["xAbC"], ["xD"]],
    ["x(?i:[^a])", ["xb"], ["xA"]],
    ["x(?i:[[:lower:]])", ["xQ"], ["x1"]],
    ["x(?i:\\x41)", ["xa"], ["xb"]],
    ["x(?i:\\Qa.b\\E)", ["xA.B"], ["xAxB"]],
  ];
  for (const [pattern, matched, unmatched] of cases) {
    for (const topic of matched) assert.equal(matches(pattern, topic), true, `${pattern} ${topic}`);
    for (const topic of unmatched) assert.equal(matches(pattern, topic), false, pattern);
  }
  assert.match(refusal("x(?i:\\pL)"), /Unicode class/);
  assert.match(refusal("x(?i:[\\x41-Z])"), /escaped end/);
});

test("a scoped (?i:...) matches what a leading (?i) does", () => {
  const atoms = ["a", "B", "c", "[a-c]", "[^b]", "[A-Z_]", "[[:upper:]]", ".", "x*", "(ab|C)"];
  const more = ["\\x41", "\\Qa.\\E", "d?", "[]a]", "[-b]", "\\d", "\\w"];
  const pattern = fc.array(fc.constantFrom(...atoms, ...more), { minLength: 1, maxLength: 4 });
  const name = fc.stringMatching(/^[aAbBcCdDxX.\-_Z1]{0,6}$/);
  fc.assert(
    fc.property(pattern, fc.array(name, { minLength: 1, maxLength: 8 }), (parts, names) => {
      const source = parts.join("");
      for (const topic of names) {
        assert.equal(matches(`(?i:${source})`, topic), matches(`(?i)${source}`, topic), topic);
      }
    }),
    { seed: 20261208, numRuns: 300 },
  );
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
