/**
 * Writes docs/compatibility.md from a recording of the real-client tests (see
 * test/clients/compatibility-record.ts): one row per API the node advertises, its served
 * versions, and for each real client the versions it used in a test that ran.
 *
 * Usage: node dist/test/compatibility/write-matrix.js RECORDING > docs/compatibility.md
 */
import { readFileSync } from "node:fs";
import {
  rangeText,
  type CompatibilityLine,
  type MatrixClient,
} from "../clients/compatibility-record.js";

const CLIENTS: readonly MatrixClient[] = ["kcat (librdkafka)", "kafkajs", "@platformatic/kafka"];

/** Versions as ranges: 0, 3-9, 12. */
function versionsText(versions: ReadonlySet<number>): string {
  const sorted = [...versions].sort((left, right) => left - right);
  const parts: string[] = [];
  let start = sorted[0];
  for (let index = 0; index < sorted.length; index++) {
    const current = sorted[index];
    const next = sorted[index + 1];
    if (start === undefined || current === undefined) break;
    if (next === current + 1) continue;
    parts.push(rangeText(start, current));
    start = next;
  }
  return parts.length === 0 ? "—" : parts.join(", ");
}

function matrix(lines: readonly CompatibilityLine[]): string {
  const advertised = new Map<string, string>();
  const used = new Map<string, Set<number>>();
  for (const line of lines) {
    if (line.kind === "advertised") advertised.set(line.api, rangeText(line.min, line.max));
    else {
      const key = `${line.client}/${line.api}`;
      used.set(key, (used.get(key) ?? new Set()).add(line.version));
    }
  }
  const header = ["API", "Served", ...CLIENTS];
  const rows = [...advertised].map(([api, range]) => [
    api,
    range,
    ...CLIENTS.map((client) => versionsText(used.get(`${client}/${api}`) ?? new Set())),
  ]);
  return [header, header.map(() => "---"), ...rows]
    .map((cells) => `| ${cells.join(" | ")} |`)
    .join("\n");
}

const recording = process.argv[2];
if (recording === undefined) {
  process.stderr.write("usage: write-matrix.js RECORDING\n");
  process.exit(2);
}
const lines = readFileSync(recording, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CompatibilityLine);
process.stdout.write(`# Client compatibility

Which Kafka APIs a Sluice node serves, at which versions, and which of those versions real
clients used against it in the test suite. "Served" is what the node's ApiVersions answer
advertises on its client listener. Each client column lists the versions that client sent in a
test that ran and passed (test/clients: kcat.test.ts for librdkafka 2.x through kcat,
kafkajs.test.ts and kafkajs-consumer.test.ts for kafkajs 2.2.4, platformatic.test.ts for
@platformatic/kafka 2.12.1); "—" means no test of that client used the API. A client picks the
highest version both sides serve, so an API a client does not use is not one it lacks: kafkajs,
for one, has no DescribeTopicPartitions.

The table is written by \`npm run compat\`, which runs those tests with a recording on and
writes this file from what the nodes counted (\`sluice_requests_by_version_total\`); every run of
the tests checks that the "Served" column still matches what the node advertises.

${matrix(lines)}
`);
