/**
 * The second half of the dashboard's script (see dashboard-script.ts): the message browser's
 * form and table, and the live connection to `/v1/events` with its state shown, polling
 * `/v1/cluster` every 5 s where the browser has no EventSource.
 */
export const DASHBOARD_LIVE_SCRIPT = String.raw`
function fieldCell(field) {
  const td = document.createElement("td");
  if (field === null) {
    td.textContent = "null";
    td.className = "muted";
    return td;
  }
  const pre = document.createElement("pre");
  pre.textContent = field.text;
  td.appendChild(pre);
  const note = document.createElement("div");
  note.className = "muted";
  note.textContent = field.format + ", " + field.sizeBytes + " bytes" +
    (field.isTruncated ? ", first part shown" : "");
  td.appendChild(note);
  return td;
}
function headersCell(headers) {
  const td = document.createElement("td");
  if (headers.length === 0) td.textContent = "-";
  for (const header of headers) {
    const line = document.createElement("div");
    line.textContent = header.key + ": " + (header.value === null ? "null" : header.value.text);
    td.appendChild(line);
  }
  return td;
}
function browseQuery() {
  const query = new URLSearchParams();
  query.set("topic", $("browse-topic").value);
  query.set("partition", $("browse-partition").value || "0");
  query.set("limit", $("browse-limit").value || "20");
  query.set("format", $("browse-format").value);
  const from = $("browse-from").value;
  const at = $("browse-at").value.trim();
  if (from === "offset" && at !== "") query.set("offset", at);
  if (from === "timestamp" && at !== "") {
    const ms = /^\d+$/.test(at) ? Number(at) : Date.parse(at);
    query.set("timestamp", String(ms));
  }
  return query;
}
async function browse(event) {
  if (event) event.preventDefault();
  const status = $("browse-status");
  status.textContent = "reading...";
  try {
    const response = await fetch("/v1/messages?" + browseQuery(), { cache: "no-store" });
    const body = await response.json();
    if (!response.ok) {
      status.textContent = body.error || "HTTP " + response.status;
      fill("messages", []);
      return;
    }
    status.textContent = body.records.length + " record" + (body.records.length === 1 ? "" :
      "s") + " from offset " + body.startOffset + " (log start " + body.logStartOffset +
      ", high watermark " + body.highWatermark + "); next offset " + body.nextOffset;
    fill("messages", body.records.map((r) => row([r.offset,
      new Date(r.timestamp).toISOString(), fieldCell(r.key), headersCell(r.headers),
      fieldCell(r.value)], "", { offset: r.offset })));
  } catch (error) {
    status.textContent = "cannot read: " + error.message;
  }
}
$("browse-form").addEventListener("submit", browse);

async function poll() {
  try {
    const response = await fetch("/v1/cluster", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    draw(await response.json());
    $("live").textContent = "polling every 5 s";
  } catch (error) {
    $("live").textContent = "cannot load /v1/cluster: " + error.message;
  }
}
function connect() {
  if (typeof EventSource !== "function") {
    poll();
    setInterval(poll, 5000);
    return;
  }
  const events = new EventSource("/v1/events");
  events.addEventListener("open", () => {
    $("live").textContent = "live";
    $("live").className = "live";
  });
  events.addEventListener("error", () => {
    $("live").textContent = "disconnected: reconnecting";
    $("live").className = "offline";
  });
  events.addEventListener("cluster", (event) => draw(JSON.parse(event.data)));
  events.addEventListener("metadata", (event) => addChange(JSON.parse(event.data)));
}
connect();
`;
