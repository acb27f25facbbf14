// Changes applied to Kafka's JSON message definitions after gen-schemas.mjs reads them: layouts of
// versions newer than the definitions we hold, each a fact from a KIP, and Sluice's own tagged
// fields, each recorded in docs/decisions/. No overlay carries text from Kafka. gen-schemas.mjs
// calls applyOverlays on every parsed definition.

/**
 * KIP-996 (pre-vote): Vote version 2 adds the boolean PreVote as the last field of the request's
 * PartitionData; the response of version 2 is laid out as version 1. Both stay flexible.
 */
function voteVersion2(definition) {
  definition.validVersions = "0-2";
  if (definition.name !== "VoteRequest") return;
  const topics = definition.fields.find((field) => field.name === "Topics");
  const partitions = topics?.fields?.find((field) => field.name === "Partitions");
  if (partitions === undefined) throw new Error("VoteRequest lacks Topics.Partitions");
  if (partitions.fields.some((field) => field.name === "PreVote")) return;
  partitions.fields.push({ name: "PreVote", type: "bool", versions: "2+" });
}

/**
 * Sluice extension (docs/decisions/0006-assigned-broker-ids.md): a broker that registers with id
 * -1 learns the id the controller gave it from the tagged field AssignedBrokerId (tag 10001, far
 * from Kafka's own tags) of every version. Kafka peers skip a tag they do not know.
 */
function assignedBrokerId(definition) {
  if (definition.flexibleVersions !== "0+") {
    throw new Error(`${definition.name}: expected every version to be flexible`);
  }
  if (definition.fields.some((field) => field.name === "AssignedBrokerId")) return;
  definition.fields.push({
    name: "AssignedBrokerId",
    type: "int32",
    versions: "0+",
    taggedVersions: "0+",
    tag: 10001,
    default: "-1",
    ignorable: true,
  });
}

/** Each overlay with the versions it expects to find, so a newer definition is not overlaid blindly. */
const overlays = new Map([
  ["VoteRequest", { expectedVersions: "0-1", apply: voteVersion2 }],
  ["VoteResponse", { expectedVersions: "0-1", apply: voteVersion2 }],
  ["BrokerRegistrationResponse", { expectedVersions: "0-4", apply: assignedBrokerId }],
]);

/** Applies the overlay of a definition, if it has one, in place; returns the definition. */
export function applyOverlays(definition) {
  const overlay = overlays.get(definition.name);
  if (overlay !== undefined) {
    if (definition.validVersions !== overlay.expectedVersions) {
      const found = definition.validVersions;
      const expected = overlay.expectedVersions;
      throw new Error(
        `${definition.name}: the overlay expects versions ${expected}, found ${found}`,
      );
    }
    overlay.apply(definition);
  }
  return definition;
}
