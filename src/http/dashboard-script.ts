/**
 * The dashboard page's script, as text for the page's one inline script element. It opens
 * `/v1/events` (Server-Sent Events; the browser reconnects by itself) and draws each `cluster`
 * event, prepends each `metadata` event to the change list, and runs the message browser on
 * `/v1/messages`. Without EventSource it polls `/v1/cluster`. Every piece of data is written
 * with textContent (never as markup), so names from the cluster cannot inject anything.
 */
export const DASHBOARD_SCRIPT = String.raw`
"use strict";
const $ = (id) => document.getElementById(id);
const text = (value) => (value === null || value === undefined ? "-" : String(value));
const CHANGES_SHOWN_MAX = 100;

function cell(value, className) {
  const td = document.createElement("td");
  const isList = Array.isArray(value);
  td.textContent = isList ? (value.length === 0 ? "-" : value.join(",")) : text(value);
  if (className) td.className = className;
  return td;
}
function row(cells, className, data) {
  const tr = document.createElement("tr");
  if (className) tr.className = className;
  for (const [name, value] of Object.entries(data || {})) tr.dataset[name] = String(value);
  for (const value of cells) tr.appendChild(value instanceof Node ? value : cell(value));
  return tr;
}
function fill(id, rows) { $(id).replaceChildren(...rows); }
const isInternal = (name) => name.startsWith("__");

function drawHealth(view) {
  const health = view.health;
  const box = $("health");
  box.className = "health " + health.status;
  $("health-status").textContent = "Cluster " + health.status;
  fill("health-reasons", health.reasons.map((reason) => {
    const li = document.createElement("li");
    li.textContent = reason;
    return li;
  }));
  $("summary").textContent = "cluster " + view.clusterId + " as node " + view.nodeId +
    " (" + view.roles.join(", ") + ") sees it";
}

function drawQuorum(view) {
  const c = view.controller;
  $("quorum-summary").textContent = "leader " + text(c.leaderId) + ", epoch " + c.leaderEpoch +
    ", high watermark " + text(c.highWatermark) + ", voters " + c.voters.join(",") +
    "; this node's copy of the log ends at offset " + c.logEndOffset;
  const replicas = c.replicas;
  $("quorum-replicas").hidden = replicas === null;
  $("quorum-elsewhere").hidden = replicas !== null;
  $("quorum-elsewhere").textContent = replicas === null ? "Voter and observer lag is known " +
    "only at the quorum leader (node " + text(c.leaderId) + "): see its dashboard." : "";
  if (replicas === null) return;
  const replicaRow = (kind) => (r) => row([r.id, r.id === c.leaderId ? "leader" : kind,
    r.logEndOffset < 0 ? null : r.logEndOffset, r.lag < 0 ? null : r.lag],
    r.lag > 0 ? "warn" : "");
  fill("quorum-rows", [...replicas.voters.map(replicaRow("voter")),
    ...replicas.observers.map(replicaRow("observer"))]);
}

function brokerState(b) {
  return b.isFenced ? "fenced" : b.inControlledShutdown ? "controlled shutdown" : "active";
}
function drawBrokers(view) {
  fill("brokers", view.brokers.map((b) => row([b.id, b.epoch, cell(brokerState(b), "state"),
    b.rack, b.endpoints.map((e) => e.name + "://" + e.host + ":" + e.port),
    b.directories.length + " online" + (b.directories.length > 0 ? ": " +
      b.directories.join(", ") : "")],
    b.isFenced ? "bad" : b.inControlledShutdown ? "warn" : "", { broker: b.id })));
  fill("log-dirs", view.logDirs.map((d) => row([d.path, d.isOnline ? "online" : "offline"],
    d.isOnline ? "" : "bad")));
}

function partitionStatus(topic, p) {
  if (p.leader === null) return "offline";
  if (p.isr.length < Math.min(topic.minInsyncReplicas, p.replicas.length)) return "under min ISR";
  if (p.isr.length < p.replicas.length) return "under-replicated";
  return "ok";
}
function topicRow(t) {
  const statuses = t.partitions.map((p) => partitionStatus(t, p));
  const count = (status) => statuses.filter((s) => s === status).length;
  const offline = count("offline");
  const under = statuses.length - offline - count("ok");
  const factor = t.partitions.length === 0 ? null : t.partitions[0].replicas.length;
  return row([t.name, t.partitions.length, factor, t.minInsyncReplicas, offline, under],
    offline > 0 ? "bad" : under > 0 ? "warn" : "", { topic: t.name });
}
function partitionRows(topics) {
  const rows = [];
  for (const t of topics) for (const p of t.partitions) {
    const status = partitionStatus(t, p);
    rows.push(row([t.name, p.partition, p.leader, p.leaderEpoch, p.replicas, p.isr, p.elr,
      cell(status, "state"), p.highWatermark, p.logEndOffset, p.followerLag],
      status === "offline" ? "bad" : status === "ok" ? "" : "warn",
      { topic: t.name, partition: p.partition }));
  }
  return rows;
}
function drawTopics(view) {
  const user = view.topics.filter((t) => !isInternal(t.name));
  const internal = view.topics.filter((t) => isInternal(t.name));
  fill("topics", user.map(topicRow));
  fill("internal-topics", internal.map(topicRow));
  $("internal-count").textContent = String(internal.length);
  fill("partitions", partitionRows(user));
  fill("internal-partitions", partitionRows(internal));
  const r = view.replication;
  fill("replication", [row([r.offlinePartitions, r.underReplicatedPartitions,
    r.underMinIsrPartitions], r.offlinePartitions > 0 ? "bad" :
    r.underReplicatedPartitions + r.underMinIsrPartitions > 0 ? "warn" : "")]);
  drawTopicChoices(user.concat(internal));
}

function drawTopicChoices(topics) {
  const list = $("topic-names");
  list.replaceChildren(...topics.map((t) => {
    const option = document.createElement("option");
    option.value = t.name;
    return option;
  }));
}

function drawGroups(view) {
  $("groups-section-note").textContent = view.groups === null ? "This node has no broker " +
    "role, so it coordinates no groups." : "The groups this broker coordinates (it leads " +
    "their __consumer_offsets partition); other brokers' dashboards show theirs. Lag is " +
    "known where this broker hosts the partition.";
  const rows = [];
  for (const g of view.groups || []) {
    rows.push(row([g.groupId, g.groupType, g.state, "", "", "", g.totalLag], "group",
      { group: g.groupId }));
    for (const o of g.offsets) {
      rows.push(row(["", "", "", o.topic + "-" + o.partition, o.committedOffset,
        o.highWatermark, o.lag], o.lag > 0 ? "warn" : ""));
    }
  }
  fill("groups", rows);
}

function drawReplicaManager(view) {
  const m = view.replicaManager;
  $("replica-manager-section").hidden = m === null;
  fill("replica-manager", m === null ? [] : [row([m.leaderCount, m.partitionCount,
    m.underReplicatedPartitions, m.underMinIsrPartitionCount, m.atMinIsrPartitionCount,
    m.offlineReplicaCount, m.reassigningPartitions, m.isrShrinks, m.isrExpands,
    m.failedIsrUpdates, m.maxLag], m.underReplicatedPartitions + m.underMinIsrPartitionCount +
    m.offlineReplicaCount > 0 ? "warn" : "")]);
}

function draw(view) {
  drawHealth(view);
  drawQuorum(view);
  drawBrokers(view);
  drawTopics(view);
  drawReplicaManager(view);
  drawGroups(view);
  $("updated").textContent = "updated " + new Date().toLocaleTimeString();
}

// The last change shown: a reconnected stream resends none before it (Last-Event-ID), or all
// it keeps when it cannot resume, which are then skipped.
let lastChangeOffset = -1;
function addChange(change) {
  if (change.lastOffset <= lastChangeOffset) return;
  lastChangeOffset = change.lastOffset;
  const li = document.createElement("li");
  const where = change.kind === "snapshot" ? "snapshot to offset " + change.lastOffset :
    "offsets " + change.baseOffset + "-" + change.lastOffset;
  const head = document.createElement("span");
  head.className = "change-head";
  head.textContent = where + " (epoch " + change.epoch + ", " + change.recordCount +
    " record" + (change.recordCount === 1 ? "" : "s") + ")";
  li.appendChild(head);
  const records = document.createElement("ul");
  for (const record of change.records) {
    const item = document.createElement("li");
    item.textContent = record.type + (record.summary ? ": " + record.summary : "");
    records.appendChild(item);
  }
  if (change.recordCount > change.records.length) {
    const more = document.createElement("li");
    more.textContent = "and " + (change.recordCount - change.records.length) + " more";
    records.appendChild(more);
  }
  li.appendChild(records);
  const list = $("changes");
  list.insertBefore(li, list.firstChild);
  while (list.childElementCount > CHANGES_SHOWN_MAX) list.removeChild(list.lastChild);
}
`;
