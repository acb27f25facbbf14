import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../common/index.js";
import type { MetadataImage } from "../../metadata/index.js";
import type { AlterClientQuotasRequestOpData, MetadataRecord } from "../../protocol/index.js";
import { imageAfter } from "../cluster/index.js";
import { imageOf } from "../cluster/controls.test-support.js";
import { alterClientQuotas } from "./alter-client-quotas.js";
import { QuotaMatchType, describeClientQuotas } from "./describe-client-quotas.js";

type Part = { entityType: string; entityName: string | null };
const user = (name: string | null): Part => ({ entityType: "user", entityName: name });
const client = (name: string | null): Part => ({ entityType: "client-id", entityName: name });
const set = (key: string, value: number): AlterClientQuotasRequestOpData => ({
  key,
  value,
  remove: false,
});
const remove = (key: string): AlterClientQuotasRequestOpData => ({ key, value: 0, remove: true });

function alter(
  image: MetadataImage,
  entries: { entity: Part[]; ops: AlterClientQuotasRequestOpData[] }[],
  validateOnly = false,
) {
  return alterClientQuotas(image, { entries, validateOnly });
}

function applied(image: MetadataImage, records: readonly MetadataRecord[]): MetadataImage {
  return imageAfter(image, records);
}

test("a set quota becomes one ClientQuotaRecord and the image holds it", () => {
  const image = imageOf();
  const result = alter(image, [
    { entity: [user("alice")], ops: [set("producer_byte_rate", 1024)] },
  ]);
  assert.deepEqual(result.response.entries, [
    { errorCode: 0, errorMessage: null, entity: [user("alice")] },
  ]);
  assert.equal(result.records.length, 1);
  const after = applied(image, result.records);
  const [entry] = describeClientQuotas(after, { components: [], strict: false }).entries ?? [];
  assert.deepEqual(entry, {
    entity: [user("alice")],
    values: [{ key: "producer_byte_rate", value: 1024 }],
  });
});

test("an unchanged value and the removal of an unset key write nothing", () => {
  const entity = [user("alice"), client("app")];
  const first = alter(imageOf(), [{ entity, ops: [set("consumer_byte_rate", 10)] }]);
  const image = applied(imageOf(), first.records);
  const again = alter(image, [
    { entity, ops: [set("consumer_byte_rate", 10), remove("producer_byte_rate")] },
  ]);
  assert.equal(again.response.entries[0]?.errorCode, ErrorCode.NONE);
  assert.deepEqual(again.records, []);
  const removal = alter(image, [{ entity, ops: [remove("consumer_byte_rate")] }]);
  const after = applied(image, removal.records);
  assert.equal(after.clientQuotas.entities.size, 0, "an entity with no quota is gone");
});

test("validateOnly checks and writes nothing", () => {
  const result = alter(
    imageOf(),
    [{ entity: [user(null)], ops: [set("producer_byte_rate", 5)] }],
    true,
  );
  assert.equal(result.response.entries[0]?.errorCode, ErrorCode.NONE);
  assert.deepEqual(result.records, []);
});

test("bad entities and values get INVALID_REQUEST with Kafka's messages, each alone", () => {
  const cases: [Part[], AlterClientQuotasRequestOpData[], string][] = [
    [[], [set("producer_byte_rate", 1)], "Invalid empty client quota entity"],
    [[{ entityType: "group", entityName: "g" }], [], "Unhandled client quota entity type: group"],
    [[user("")], [], "Empty user not supported"],
    [
      [user("a1")],
      [set("connection_creation_rate", 1)],
      "Invalid configuration key connection_creation_rate",
    ],
    [
      [user("a2")],
      [set("producer_byte_rate", 0)],
      "Quota producer_byte_rate must be greater than 0",
    ],
    [
      [user("a3")],
      [set("producer_byte_rate", 1.5)],
      "producer_byte_rate cannot be a fractional value.",
    ],
    [
      [user("a4")],
      [set("producer_byte_rate", 2 ** 64)],
      "Proposed value for producer_byte_rate is too large for a LONG.",
    ],
    [
      [user("a5")],
      [set("producer_byte_rate", Number.NaN)],
      "Quota producer_byte_rate must be greater than 0",
    ],
    [[user("a6")], [set("linger", 1)], "Invalid configuration key linger"],
    [
      [{ entityType: "ip", entityName: "1.2.3.4" }, user("a7")],
      [],
      "Invalid quota entity combination, IP entity should not be combined with User or ClientId",
    ],
    [
      [{ entityType: "ip", entityName: "no such host" }],
      [],
      "no such host is not a valid IP or resolvable host.",
    ],
  ];
  const entries = cases.map(([entity, ops]) => ({ entity, ops }));
  entries.push({ entity: [client("ok")], ops: [set("consumer_byte_rate", 100)] });
  const result = alter(imageOf(), entries);
  cases.forEach(([, , message], index) => {
    const entry = result.response.entries[index];
    assert.equal(entry?.errorCode, ErrorCode.INVALID_REQUEST, message);
    assert.equal(entry?.errorMessage, message);
  });
  assert.equal(result.response.entries.at(-1)?.errorCode, ErrorCode.NONE);
  assert.equal(result.records.length, 1, "only the valid entity writes");
});

test("keys no broker enforces are refused rather than stored", () => {
  const ops = [set("controller_mutation_rate", 50)];
  const result = alter(imageOf(), [{ entity: [user("a")], ops }]);
  assert.equal(result.response.entries[0]?.errorCode, ErrorCode.INVALID_REQUEST);
  assert.match(result.response.entries[0]?.errorMessage ?? "", /not enforced/);
  const ip = alter(imageOf(), [
    {
      entity: [{ entityType: "ip", entityName: "::1" }],
      ops: [set("connection_creation_rate", 5)],
    },
  ]);
  assert.match(ip.response.entries[0]?.errorMessage ?? "", /not enforced/);
});

test("an entity named twice, or a key set twice, is refused as Kafka's duplicate entity", () => {
  const entity = [user("a")];
  const twice = alter(imageOf(), [
    { entity, ops: [set("producer_byte_rate", 1)] },
    { entity: [user("a")], ops: [set("consumer_byte_rate", 1)] },
  ]);
  assert.equal(twice.response.entries.length, 1, "one answer per entity");
  assert.equal(twice.response.entries[0]?.errorCode, ErrorCode.INVALID_REQUEST);
  const keyTwice = alter(imageOf(), [
    { entity, ops: [set("producer_byte_rate", 1), set("producer_byte_rate", 2)] },
  ]);
  assert.match(keyTwice.response.entries[0]?.errorMessage ?? "", /^Ignoring duplicate entity/);
  assert.deepEqual(keyTwice.records, []);
});

function imageWithQuotas(): MetadataImage {
  const rate = (value: number) => [set("producer_byte_rate", value)];
  const result = alter(imageOf(), [
    { entity: [user("alice")], ops: rate(1) },
    { entity: [user(null)], ops: rate(2) },
    { entity: [user("alice"), client("app")], ops: rate(3) },
    { entity: [client(null)], ops: rate(4) },
    { entity: [client("app")], ops: rate(5) },
  ]);
  return applied(imageOf(), result.records);
}

function described(
  components: { entityType: string; matchType: number; match: string | null }[],
  strict = false,
) {
  const response = describeClientQuotas(imageWithQuotas(), { components, strict });
  assert.equal(response.errorCode, ErrorCode.NONE, response.errorMessage ?? "");
  return (response.entries ?? []).map((entry) => entry.values[0]?.value).sort();
}

test("DescribeClientQuotas matches exact names, defaults and any name, strictly or not", () => {
  const { EXACT, DEFAULT, SPECIFIED } = QuotaMatchType;
  assert.deepEqual(described([]), [1, 2, 3, 4, 5]);
  assert.deepEqual(described([], true), []);
  assert.deepEqual(described([{ entityType: "user", matchType: EXACT, match: "alice" }]), [1, 3]);
  const alice = [{ entityType: "user", matchType: EXACT, match: "alice" }];
  assert.deepEqual(described(alice, true), [1]);
  assert.deepEqual(described([{ entityType: "user", matchType: DEFAULT, match: null }]), [2]);
  assert.deepEqual(
    described([{ entityType: "client-id", matchType: SPECIFIED, match: null }]),
    [3, 4, 5],
  );
  assert.deepEqual(
    described([{ entityType: "client-id", matchType: SPECIFIED, match: null }], true),
    [4, 5],
  );
});

test("DescribeClientQuotas refuses a bad filter as a whole", () => {
  const { EXACT, DEFAULT } = QuotaMatchType;
  const cases: [{ entityType: string; matchType: number; match: string | null }[], number][] = [
    [[{ entityType: "", matchType: EXACT, match: "a" }], ErrorCode.INVALID_REQUEST],
    [[{ entityType: "group", matchType: EXACT, match: "a" }], ErrorCode.UNSUPPORTED_VERSION],
    [[{ entityType: "user", matchType: EXACT, match: null }], ErrorCode.INVALID_REQUEST],
    [[{ entityType: "user", matchType: DEFAULT, match: "a" }], ErrorCode.INVALID_REQUEST],
    [[{ entityType: "user", matchType: 7, match: null }], ErrorCode.INVALID_REQUEST],
    [
      [
        { entityType: "user", matchType: DEFAULT, match: null },
        { entityType: "user", matchType: EXACT, match: "a" },
      ],
      ErrorCode.INVALID_REQUEST,
    ],
    [
      [
        { entityType: "ip", matchType: DEFAULT, match: null },
        { entityType: "user", matchType: EXACT, match: "a" },
      ],
      ErrorCode.INVALID_REQUEST,
    ],
  ];
  for (const [components, errorCode] of cases) {
    const response = describeClientQuotas(imageWithQuotas(), { components, strict: false });
    assert.equal(response.errorCode, errorCode, JSON.stringify(components));
    assert.equal(response.entries, null);
  }
});
