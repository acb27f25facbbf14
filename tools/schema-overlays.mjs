// Changes applied to Kafka's JSON message definitions after gen-schemas.mjs reads them, for
// versions newer than the definitions we hold. Each overlay states a layout fact from a KIP; it
// carries no text from Kafka. gen-schemas.mjs calls applyOverlays on every parsed definition.

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

const overlays = new Map([
  ["VoteRequest", voteVersion2],
  ["VoteResponse", voteVersion2],
]);

/** Applies the overlay of a definition, if it has one, in place; returns the definition. */
export function applyOverlays(definition) {
  const overlay = overlays.get(definition.name);
  if (overlay !== undefined) {
    if (definition.validVersions !== "0-1") {
      const found = definition.validVersions;
      throw new Error(`${definition.name}: the overlay expects versions 0-1, found ${found}`);
    }
    overlay(definition);
  }
  return definition;
}
