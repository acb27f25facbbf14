/**
 * The `GET /` route: one static HTML page, the dashboard every node serves. From the top: the
 * cluster's health, the controller quorum (leader, epoch, voters and observers with their lag
 * where this node leads), brokers (fenced, in controlled shutdown, their log dirs) and this
 * node's log dirs, topics with the internal ones folded, partitions (leader, ISR, ELR, offline
 * and under-replicated marked), the consumer groups this broker coordinates with their lag, a
 * message browser, and the metadata changes as they commit. It updates live from
 * `/v1/events` (dashboard-script.ts). It has no external assets and no build step, and its
 * script writes text only, so names from the cluster are never parsed as markup.
 */
import { DASHBOARD_LIVE_SCRIPT } from "./dashboard-live-script.js";
import { DASHBOARD_SCRIPT } from "./dashboard-script.js";
import type { HttpImmediateRoute } from "./http-types.js";

export const HTML_CONTENT_TYPE = "text/html; charset=utf-8";

// The page's only script is the inline one below, and it may only fetch from this origin.
const contentSecurityPolicy =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'";

const style = `
body { font: 14px system-ui, sans-serif; margin: 1.5rem; color: #1b1f23; }
h1 { font-size: 1.3rem; margin-bottom: 0.2rem; } h2 { font-size: 1.05rem; margin-top: 1.6rem; }
table { border-collapse: collapse; margin-top: 0.4rem; }
td, th { padding: 0.25rem 0.7rem; text-align: left; vertical-align: top; }
th { border-bottom: 2px solid #888; } td { border-bottom: 1px solid #ddd; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; max-width: 40rem; }
.bad { color: #b00020; font-weight: 600; } .warn { color: #8a5a00; }
.muted, #updated { color: #666; font-size: 0.85em; }
.health { padding: 0.6rem 0.9rem; border-radius: 6px; margin: 0.8rem 0; }
.health.healthy { background: #e6f4ea; } .health.degraded { background: #fff4d6; }
.health.unavailable { background: #fde7e9; }
#health-status { font-weight: 700; font-size: 1.1rem; } #health-reasons { margin: 0.3rem 0 0; }
.live { color: #137333; } .offline { color: #b00020; }
tr.group td { font-weight: 600; border-top: 1px solid #bbb; }
form label { margin-right: 0.8rem; } #changes > li { margin-bottom: 0.4rem; }
.change-head { font-weight: 600; }
`;

const partitionHeader = `<tr><th>topic</th><th>partition</th><th>leader</th>
<th>leader epoch</th><th>replicas</th><th>ISR</th><th>ELR</th><th>status</th>
<th>high watermark</th><th>log end offset</th><th>follower lag</th></tr>`;

const topicHeader = `<tr><th>topic</th><th>partitions</th><th>replication factor</th>
<th>min ISR</th><th>offline</th><th>under-replicated</th></tr>`;

const browser = `
<h2>Message browser</h2>
<form id="browse-form">
<label>topic <input id="browse-topic" list="topic-names" required></label>
<datalist id="topic-names"></datalist>
<label>partition <input id="browse-partition" type="number" min="0" value="0"></label>
<label>from <select id="browse-from"><option value="earliest">the log start</option>
<option value="offset">an offset</option><option value="timestamp">a time</option></select>
<input id="browse-at" placeholder="offset, ms or ISO time"></label>
<label>records <input id="browse-limit" type="number" min="1" max="100" value="20"></label>
<label>values as <select id="browse-format"><option value="text">text</option>
<option value="json">JSON</option><option value="hex">hex</option></select></label>
<button type="submit" id="browse-button">Browse</button>
</form>
<p id="browse-status" class="muted">Reads a replica this broker hosts, up to its high
watermark.</p>
<table>
<thead><tr><th>offset</th><th>timestamp</th><th>key</th><th>headers</th><th>value</th></tr>
</thead>
<tbody id="messages"></tbody>
</table>`;

const body = `
<h1>Sluice</h1>
<p><span id="summary">Loading the cluster view...</span> &middot; <span id="live">connecting
</span> &middot; <span id="updated"></span></p>
<div id="health" class="health"><div id="health-status">Cluster health unknown</div>
<ul id="health-reasons"></ul></div>
<p><a href="/metrics">metrics</a> &middot; <a href="/health">health</a>
 &middot; <a href="/v1/cluster">cluster JSON</a></p>
<h2>Controller quorum</h2>
<p id="quorum-summary"></p>
<p id="quorum-elsewhere" class="muted" hidden></p>
<table id="quorum-replicas" hidden>
<thead><tr><th>node</th><th>role</th><th>log end offset</th><th>lag</th></tr></thead>
<tbody id="quorum-rows"></tbody>
</table>
<h2>Brokers</h2>
<table>
<thead><tr><th>id</th><th>epoch</th><th>state</th><th>rack</th><th>endpoints</th>
<th>log dirs</th></tr></thead>
<tbody id="brokers"></tbody>
</table>
<h2>This node's log dirs</h2>
<table><thead><tr><th>path</th><th>state</th></tr></thead><tbody id="log-dirs"></tbody></table>
<h2>Topics</h2>
<table><thead>${topicHeader}</thead><tbody id="topics"></tbody></table>
<details id="internal"><summary>Internal topics (<span id="internal-count">0</span>)</summary>
<table><thead>${topicHeader}</thead><tbody id="internal-topics"></tbody></table>
<table><thead>${partitionHeader}</thead><tbody id="internal-partitions"></tbody></table>
</details>
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
<h2>Partitions</h2>
<table><thead>${partitionHeader}</thead><tbody id="partitions"></tbody></table>
<h2>Consumer groups</h2>
<p id="groups-section-note" class="muted"></p>
<table>
<thead><tr><th>group</th><th>type</th><th>state</th><th>partition</th><th>committed offset</th>
<th>high watermark</th><th>lag</th></tr></thead>
<tbody id="groups"></tbody>
</table>
${browser}
<h2>Metadata changes</h2>
<p class="muted">Committed changes of the metadata log, newest first, as they commit.</p>
<ul id="changes"></ul>`;

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sluice</title>
<style>${style}</style>
</head>
<body>
${body}
<script>${DASHBOARD_SCRIPT}${DASHBOARD_LIVE_SCRIPT}</script>
</body>
</html>
`;

/** `GET /`: {@link DASHBOARD_HTML}, never cached, under a policy that allows nothing else. */
export function dashboardRoute(): HttpImmediateRoute {
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
