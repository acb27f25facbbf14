/**
 * What a real client's test proves about compatibility: the API versions the client used
 * against the node, read from the node's `sluice_requests_by_version_total`, and the versions
 * the node advertises in ApiVersions. Every real-client test calls `recordCompatibility` before
 * it stops its node; it fails when no request of the client is counted, and when
 * docs/compatibility.md no longer lists what the node advertises. With
 * COMPAT_RECORDING set (`npm run compat`), it appends what it saw to that file, from
 * which test/compatibility/write-matrix.ts writes docs/compatibility.md.
 */
import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { withConnection } from "../../src/client/index.js";
import { apiDefinition, apiVersions } from "../../src/protocol/index.js";
import { clientPorts, type SluiceProcess } from "./sluice-process.js";

/** The real clients of the matrix, as its columns name them. */
export type MatrixClient = "kcat (librdkafka)" | "kafkajs" | "@platformatic/kafka";

/** One line of the recording: a version a client used, or a range the node advertises. */
export type CompatibilityLine =
  | { readonly kind: "used"; readonly client: MatrixClient; readonly api: string; version: number }
  | { readonly kind: "advertised"; readonly api: string; min: number; max: number };

const ROOT = join(import.meta.dirname, "..", "..", "..");
export const MATRIX_PATH = join(ROOT, "docs", "compatibility.md");
/** The software name of the project's own client, which the tests use to set up and check. */
const OWN_SOFTWARE = "sluice";
const ownSoftware = { clientSoftwareName: OWN_SOFTWARE, clientSoftwareVersion: "1" };
const SERIES = /^sluice_requests_by_version_total\{([^}]*)\} (\d+)/;

/** The APIs and versions the node's client listener advertises, by API name. */
export async function advertisedRanges(node: SluiceProcess) {
  const result = await withConnection(
    { host: "127.0.0.1", port: node.ports.client },
    clientPorts(),
    (connection) => connection.send(apiVersions, ownSoftware, { maxVersion: 3 }),
    { requestTimeoutMs: 5000 },
  );
  assert.equal(result.kind, "response", "ApiVersions answered");
  if (result.kind !== "response") throw new Error("unreachable");
  assert.equal(result.body.errorCode, 0, "ApiVersions accepted");
  assert.ok(result.body.apiKeys.length > 0, "ApiVersions lists the APIs served");
  return result.body.apiKeys.map((key) => ({
    api: apiDefinition(key.apiKey)?.name ?? String(key.apiKey),
    min: key.minVersion,
    max: key.maxVersion,
  }));
}

/** The versions clients other than the project's own used against the node, by API name. */
export async function usedVersions(
  node: SluiceProcess,
): Promise<{ api: string; version: number }[]> {
  const response = await fetch(`http://127.0.0.1:${node.ports.http}/metrics`);
  const text = await response.text();
  const used: { api: string; version: number }[] = [];
  for (const line of text.split("\n")) {
    const match = SERIES.exec(line);
    if (match === null || Number(match[2]) === 0) continue;
    const labels = new Map(
      [...(match[1] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]),
    );
    if (labels.get("server") !== "client") continue;
    if (labels.get("client_software_name") === OWN_SOFTWARE) continue;
    used.push({ api: labels.get("api") ?? "", version: Number(labels.get("version")) });
  }
  return used;
}

/** The `| API | min-max |` ranges docs/compatibility.md lists, by API name. */
export function documentedRanges(markdown: string): Map<string, string> {
  const ranges = new Map<string, string>();
  for (const line of markdown.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const range = cells[2];
    if (cells.length < 5 || range === undefined || !/^\d+(-\d+)?$/.test(range)) continue;
    ranges.set(cells[1] ?? "", range);
  }
  return ranges;
}

export function rangeText(min: number, max: number): string {
  return min === max ? String(min) : `${min}-${max}`;
}

/**
 * Reads which versions `client` used against `node` and checks the published matrix against
 * what the node advertises; appends both to the recording when one is asked for.
 */
export async function recordCompatibility(node: SluiceProcess, client: MatrixClient) {
  const used = await usedVersions(node);
  assert.ok(used.length > 0, `${client}'s requests are counted by API and version`);
  const advertised = await advertisedRanges(node);
  const rewriting = process.env["COMPAT_REWRITE"] === "1";
  const documented = rewriting
    ? new Map(advertised.map(({ api, min, max }) => [api, rangeText(min, max)]))
    : documentedRanges(readFileSync(MATRIX_PATH, "utf8"));
  const stale = advertised.filter(
    ({ api, min, max }) => documented.get(api) !== rangeText(min, max),
  );
  const unserved = [...documented.keys()].filter(
    (api) => !advertised.some((range) => range.api === api),
  );
  assert.deepEqual(
    [...stale.map(({ api }) => api), ...unserved],
    [],
    "docs/compatibility.md lists the versions served (npm run compat rewrites it)",
  );
  const out = process.env["COMPAT_RECORDING"];
  if (out === undefined || out === "") return;
  const lines: CompatibilityLine[] = [
    ...used.map(({ api, version }) => ({ kind: "used" as const, client, api, version })),
    ...advertised.map((range) => ({ kind: "advertised" as const, ...range })),
  ];
  appendFileSync(out, lines.map((line) => JSON.stringify(line) + "\n").join(""));
}
