/**
 * `sluice.metrics.partition.level.enable=false` on a real node: after records are produced the
 * per-partition log families (`kafka_log_log_*`) have no series, while the per-topic and total
 * families still count what was written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { pollUntil } from "../cluster/cluster-process.js";
import { nodeForTheseTests } from "../clients/sluice-process.js";
import { runSluice } from "../cli/run-sluice.js";
import { Scrape } from "./scrape.js";

const node = nodeForTheseTests(["sluice.metrics.partition.level.enable=false"]);

test("without partition-level metrics only topic and total series are exported", async () => {
  const args = ["--bootstrap-server", node().bootstrap];
  const created = await runSluice(["topic", "create", "--topic", "quiet", ...args]);
  assert.equal(created.code, 0, created.stderr);
  const produced = await runSluice(["produce", "quiet", ...args], "a\nb\nc\n");
  assert.equal(produced.code, 0, produced.stderr);
  const messagesIn = "kafka_server_brokertopicmetrics_messagesin_total";
  const { value: scrape } = await pollUntil(
    async () => {
      const scraped = await Scrape.of(node().ports.http);
      return scraped.valueOf(messagesIn, { topic: "quiet" }) === 3 ? scraped : undefined;
    },
    { deadlineMs: 20_000, intervalMs: 100, what: "three records counted for the topic" },
  );
  assert.deepEqual(scrape.seriesOf("kafka_log_log_size"), []);
  assert.deepEqual(scrape.seriesOf("kafka_log_log_logendoffset"), []);
  assert.ok(scrape.sumOf(messagesIn) >= 3, "the total counts them too");
});
