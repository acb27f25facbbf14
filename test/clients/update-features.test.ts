/**
 * UpdateFeatures on a real node, sent over the wire to the client listener, which forwards it
 * to the controller: eligible leader replicas turned on and off again (KIP-966 as
 * kafka-features.sh does it), the refusals Kafka gives (a downgrade sent as an upgrade, an
 * unknown feature, a level no node runs, a metadata.version downgrade across a metadata change),
 * validateOnly, and the finalized levels ApiVersions reports after each change.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ErrorCode } from "../../src/common/index.js";
import { withConnection } from "../../src/client/index.js";
import { apiVersions, updateFeatures } from "../../src/protocol/index.js";
import { clientPorts, nodeForTheseTests } from "./sluice-process.js";

const node = nodeForTheseTests();

const ELR = "eligible.leader.replicas.version";

interface Update {
  readonly feature: string;
  readonly maxVersionLevel: number;
  readonly upgradeType?: number;
  readonly allowDowngrade?: boolean;
}

async function update(version: number, updates: readonly Update[], validateOnly = false) {
  const body = {
    timeoutMs: 10_000,
    featureUpdates: updates.map((one) => ({ ...one })),
    validateOnly,
  };
  const result = await withConnection(
    { host: "127.0.0.1", port: node().ports.client },
    clientPorts(),
    (connection) =>
      connection.send(updateFeatures, body, { minVersion: version, maxVersion: version }),
    { requestTimeoutMs: 15_000 },
  );
  assert.ok(result.kind === "response", JSON.stringify(result));
  return result.body;
}

/** The finalized levels ApiVersions v3 reports, by name. */
async function finalizedLevels(): Promise<Map<string, number>> {
  const result = await withConnection(
    { host: "127.0.0.1", port: node().ports.client },
    clientPorts(),
    (connection) =>
      connection.send(
        apiVersions,
        { clientSoftwareName: "sluice-test", clientSoftwareVersion: "1" },
        { maxVersion: 3 },
      ),
    { requestTimeoutMs: 5000 },
  );
  assert.ok(result.kind === "response");
  assert.equal(result.body.errorCode, ErrorCode.NONE);
  return new Map(
    result.body.finalizedFeatures.map((feature) => [feature.name, feature.maxVersionLevel]),
  );
}

test("eligible leader replicas are turned on and off with UpdateFeatures", async () => {
  assert.equal((await finalizedLevels()).get(ELR), undefined);
  const checked = await update(1, [{ feature: ELR, maxVersionLevel: 1 }], true);
  assert.equal(checked.errorCode, ErrorCode.NONE);
  assert.equal((await finalizedLevels()).get(ELR), undefined, "validateOnly changes nothing");

  const enabled = await update(1, [{ feature: ELR, maxVersionLevel: 1, upgradeType: 1 }]);
  assert.equal(enabled.errorCode, ErrorCode.NONE, enabled.errorMessage ?? "");
  assert.deepEqual(
    enabled.results.map(({ feature, errorCode }) => ({ feature, errorCode })),
    [{ feature: ELR, errorCode: 0 }],
  );
  assert.equal((await finalizedLevels()).get(ELR), 1, "the broker serves the new level at once");

  const asUpgrade = await update(2, [{ feature: ELR, maxVersionLevel: 0, upgradeType: 1 }]);
  assert.equal(asUpgrade.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(asUpgrade.errorMessage ?? "", /Can't downgrade the version of this feature/);
  assert.deepEqual(asUpgrade.results, [], "v2 answers only at the top");

  // v0 says "downgrade" with allowDowngrade; level 0 removes the feature.
  const disabled = await update(0, [{ feature: ELR, maxVersionLevel: 0, allowDowngrade: true }]);
  assert.equal(disabled.errorCode, ErrorCode.NONE, disabled.errorMessage ?? "");
  assert.equal((await finalizedLevels()).get(ELR), undefined);
});

test("updates no node can run are refused, and nothing of the request is applied", async () => {
  const unknown = await update(1, [
    { feature: ELR, maxVersionLevel: 1 },
    { feature: "no.such.feature", maxVersionLevel: 1 },
  ]);
  assert.equal(unknown.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(unknown.errorMessage ?? "", /no\.such\.feature.*does not support this feature/);
  assert.equal((await finalizedLevels()).get(ELR), undefined, "the whole request failed");

  const tooHigh = await update(1, [{ feature: ELR, maxVersionLevel: 7 }]);
  assert.equal(tooHigh.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(tooHigh.errorMessage ?? "", /only supports versions 0-1/);

  const metadataVersion = (await finalizedLevels()).get("metadata.version");
  assert.equal(metadataVersion, 22);
  const downgrade = await update(1, [
    { feature: "metadata.version", maxVersionLevel: 14, upgradeType: 2 },
  ]);
  assert.equal(downgrade.errorCode, ErrorCode.INVALID_UPDATE_VERSION);
  assert.match(downgrade.errorMessage ?? "", /might delete metadata information/);
  // 18 to 22 changed no metadata: going down to 17 is safe.
  const safe = await update(1, [
    { feature: "metadata.version", maxVersionLevel: 17, upgradeType: 2 },
  ]);
  assert.equal(safe.errorCode, ErrorCode.NONE, safe.errorMessage ?? "");
  assert.equal((await finalizedLevels()).get("metadata.version"), 17);
  const back = await update(1, [{ feature: "metadata.version", maxVersionLevel: 22 }]);
  assert.equal(back.errorCode, ErrorCode.NONE, back.errorMessage ?? "");
  assert.equal((await finalizedLevels()).get("metadata.version"), 22);
});
