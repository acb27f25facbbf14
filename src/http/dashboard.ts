/**
 * The `GET /` route: one static HTML page that fetches `/v1/cluster` and draws it as tables: the
 * cluster's replication health (offline, under-replicated, under min ISR) first, then this
 * broker's replica manager (its ReplicaManager metrics), brokers and partitions. It has no
 * external assets and no build step; its script writes text with textContent only, so names
 * from the cluster (topics, racks, hosts) are never parsed as markup.
 */
import type { HttpRoute } from "./http-types.js";

export const HTML_CONTENT_TYPE = "text/html; charset=utf-8";

// The page's only script is the inline one below, and it may only fetch from this origin.
const contentSecurityPolicy =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'";

const style = `
body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #1b1f23; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin-top: 1.5rem; }
table { border-collapse: collapse; } td, th { padding: 0.25rem 0.7rem; text-align: left; }
th { border-bottom: 2px solid #888; } td { border-bottom: 1px solid #ddd; }
.bad { color: #b00020; font-weight: 600; } #status { color: #555; }
`;

const script = `
const $ = (id) => document.getElementById(id);
const text = (value) => (value === null || value === undefined ? "-" : String(value));
function row(cells, isBad) {
  const tr = document.createElement("tr");
  if (isBad) tr.className = "bad";
  for (const cell of cells) {
    const td = document.createElement("td");
    td.textContent = Array.isArray(cell) ? cell.join(",") : text(cell);
    tr.appendChild(td);
  }
  return tr;
}
function fill(id, rows) { $(id).replaceChildren(...rows); }
function draw(view) {
  const c = view.controller;
  $("summary").textContent = "cluster " + view.clusterId + ", node " + view.nodeId +
    " (" + view.roles.join(", ") + "), controller leader " + text(c.leaderId) +
    " in epoch " + c.leaderEpoch + ", voters " + c.voters.join(",");
  const r = view.replication;
  fill("replication", [row([r.offlinePartitions, r.underReplicatedPartitions,
    r.underMinIsrPartitions], r.offlinePartitions + r.underReplicatedPartitions +
    r.underMinIsrPartitions > 0)]);
  const m = view.replicaManager;
  $("replica-manager-section").hidden = m === null;
  fill("replica-manager", m === null ? [] : [row([m.leaderCount, m.partitionCount,
    m.underReplicatedPartitions, m.underMinIsrPartitionCount, m.atMinIsrPartitionCount,
    m.offlineReplicaCount, m.reassigningPartitions, m.isrShrinks, m.isrExpands,
    m.failedIsrUpdates, m.maxLag], m.underReplicatedPartitions + m.underMinIsrPartitionCount +
    m.offlineReplicaCount > 0)]);
  fill("brokers", view.brokers.map((b) => row([b.id, b.epoch,
    b.isFenced ? "fenced" : b.inControlledShutdown ? "shutting down" : "active", b.rack,
    b.endpoints.map((e) => e.name + "://" + e.host + ":" + e.port)], b.isFenced)));
  const partitions = [];
  for (const t of view.topics) for (const p of t.partitions) {
    const isUnder = p.leader === null || p.isr.length < p.replicas.length ||
      p.isr.length < Math.min(t.minInsyncReplicas, p.replicas.length);
    partitions.push(row([t.name, p.partition, p.leader, p.leaderEpoch, p.replicas, p.isr,
      p.highWatermark, p.logEndOffset, p.followerLag], isUnder));
  }
  fill("partitions", partitions);
}
async function refresh() {
  try {
    const response = await fetch("/v1/cluster", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    draw(await response.json());
    $("status").textContent = "updated " + new Date().toLocaleTimeString();
  } catch (error) {
    $("status").textContent = "cannot load /v1/cluster: " + error.message;
  }
}
refresh();
setInterval(refresh, 5000);
`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sluice</title>
<style>${style}</style>
</head>
<body>
<h1>Sluice</h1>
<p id="summary">Loading the cluster view...</p>
<p id="status"></p>
<p><a href="/metrics">metrics</a> &middot; <a href="/health">health</a>
 &middot; <a href="/v1/cluster">cluster JSON</a></p>
<h2>Replication health</h2>
<table>
<thead><tr><th>offline partitions</th><th>under-replicated partitions</th>
<th>under min ISR partitions</th></tr></thead>
<tbody id="replication"></tbody>
</table>
<div id="replica-manager-section">
<h2>This broker's replicas</h2>
<table>
<thead><tr><th>leading</th><th>partitions</th><th>under-replicated</th><th>under min ISR</th>
<th>at min ISR</th><th>offline</th><th>reassigning</th><th>ISR shrinks</th><th>ISR expands</th>
<th>failed ISR updates</th><th>max follower lag</th></tr></thead>
<tbody id="replica-manager"></tbody>
</table>
</div>
<h2>Brokers</h2>
<table>
<thead><tr><th>id</th><th>epoch</th><th>state</th><th>rack</th><th>endpoints</th></tr></thead>
<tbody id="brokers"></tbody>
</table>
<h2>Partitions</h2>
<table>
<thead><tr><th>topic</th><th>partition</th><th>leader</th><th>leader epoch</th><th>replicas</th>
<th>ISR</th><th>high watermark</th><th>log end offset</th><th>follower lag</th></tr></thead>
<tbody id="partitions"></tbody>
</table>
<script>${script}</script>
</body>
</html>
`;

/** `GET /`: {@link DASHBOARD_HTML}, never cached, under a policy that allows nothing else. */
export function dashboardRoute(): HttpRoute {
  return {
    method: "GET",
    path: "/",
    handle: () => ({
      status: 200,
      contentType: HTML_CONTENT_TYPE,
      body: DASHBOARD_HTML,
      headers: { "content-security-policy": contentSecurityPolicy },
    }),
  };
}
