// The operator console: one small page over the /v1 API (the session cookie authenticates;
// every request that changes something carries the session's CSRF token). Nothing from the
// server is ever put in as HTML: every value goes in as text, so a tool's arguments or a
// file's contents cannot script the page.
"use strict";

const S = { session: null, stream: null, outcomes: new Map(), timers: [], page: 0 };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A read that answers after the user went on to another page never resolves: the page
// that asked is gone, and drawing its answer would replace the one now shown.
const LEFT = new Promise(() => {});

async function api(method, path, body) {
  const page = S.page;
  const headers = { "Accept": "application/json" };
  if (method !== "GET" && S.session && S.session.csrf) headers["X-CSRF-Token"] = S.session.csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) { location.href = "/console/login"; throw new Error("signed out"); }
  let data = null;
  const type = response.headers.get("content-type") || "";
  if (type.includes("json")) data = await response.json();
  if (method === "GET" && page !== S.page) return LEFT;
  return { status: response.status, ok: response.ok, data, response };
}

// When a page's data came in (benchmarks/console.py splits a load into "until the data is
// here" and "drawing it" with this mark).
function arrived() { if (!performance.getEntriesByName("console:data").length) performance.mark("console:data"); }

function can(scope) { return Boolean(S.session && S.session.can[scope]); }
function pretty(value) { return JSON.stringify(value, null, 2); }
function when(epoch) { return epoch ? new Date(epoch * 1000).toISOString().replace("T", " ").slice(0, 19) + "Z" : ""; }
function ago(epoch) {
  const s = Math.max(0, Math.floor(Date.now() / 1000 - epoch));
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  if (s < 86400) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
  return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
}
function errorText(result) {
  const e = result.data && result.data.error;
  return e ? (e.message || e.code || pretty(e)) : "HTTP " + result.status;
}
function show(...nodes) {
  const main = document.getElementById("main");
  main.replaceChildren(...nodes);
}
function stopPage() {
  if (S.stream) { S.stream.close(); S.stream = null; }
  S.timers.forEach(clearInterval); S.timers = [];
}

// ---------- approvals ----------

function descriptorOf(a) { return (a.descriptor && typeof a.descriptor === "object") ? a.descriptor : {}; }

function approvalCard(a) {
  const d = descriptorOf(a);
  const risk = d.risk || "";
  const card = el("article", { class: "approval " + a.status, "data-approval": a.approval_id,
                               "data-status": a.status },
    el("h3", {}, el("code", {}, a.namespace + "." + a.method), " ",
       el("span", { class: "badge status-" + a.status }, a.status),
       risk ? el("span", { class: "badge risk-" + risk }, "risk: " + risk) : null),
    el("p", { class: "summary" }, d.summary || ""),
    el("p", { class: "meta" }, "workspace ", el("code", {}, a.workspace), " · execution ",
       el("a", { href: "#/executions/" + encodeURIComponent(a.execution_id) }, a.execution_id),
       " · call #" + a.seq),
    el("pre", { class: "args" }, pretty(a.args)));
  if (a.status === "pending") {
    card.append(el("p", { class: "waited", "data-since": a.created_at }, "waiting " + ago(a.created_at)));
    if (can("approvals:decide")) card.append(decisionForm(a));
  } else {
    card.append(el("p", { class: "decided" }, a.status + " by ", el("strong", {}, a.decided_by || "?"),
      " at " + when(a.decided_at), a.reason ? " — " + a.reason : ""));
  }
  const outcome = S.outcomes.get(a.approval_id);
  if (outcome) card.append(outcome);
  return card;
}

function decisionForm(a) {
  const note = el("input", { type: "text", name: "note", placeholder: "note (optional)", maxlength: 8000 });
  const decide = async (verb, button) => {
    button.disabled = true;
    const body = verb === "approve" ? { note: note.value || null } : { reason: note.value || null };
    const result = await api("POST", "/v1/approvals/" + encodeURIComponent(a.approval_id) + "/" + verb, body);
    let outcome;
    if (result.ok) {
      outcome = el("div", { class: "outcome ok" }, el("strong", {}, verb === "approve" ? "Approved" : "Rejected"),
        ": execution is now " + (result.data.status || "?"), el("pre", {}, pretty(result.data)));
    } else if (result.status === 409) {
      const now = await api("GET", "/v1/approvals/" + encodeURIComponent(a.approval_id));
      const by = now.ok ? now.data.decided_by : "someone";
      const status = now.ok ? now.data.status : "decided";
      outcome = el("div", { class: "outcome refused" }, "Decided elsewhere by ", el("strong", {}, by),
        " (" + status + "): " + errorText(result));
    } else {
      outcome = el("div", { class: "outcome refused" }, "Refused: " + errorText(result));
    }
    S.outcomes.set(a.approval_id, outcome);
    const card = document.querySelector('[data-approval="' + CSS.escape(a.approval_id) + '"]');
    if (card) { card.querySelectorAll(".decide button").forEach((b) => { b.disabled = true; }); card.append(outcome); }
  };
  const approve = el("button", { class: "approve", type: "button" }, "Approve");
  const reject = el("button", { class: "reject", type: "button" }, "Reject");
  approve.addEventListener("click", () => decide("approve", approve));
  reject.addEventListener("click", () => decide("reject", reject));
  return el("div", { class: "decide" }, note, approve, reject);
}

function renderApprovals(list, container) {
  const pending = list.filter((a) => a.status === "pending").sort((x, y) => y.created_at - x.created_at);
  const decided = list.filter((a) => a.status !== "pending")
    .sort((x, y) => (y.decided_at || y.created_at) - (x.decided_at || x.created_at));
  container.replaceChildren(
    el("h2", {}, "Pending (" + pending.length + ")"),
    pending.length ? el("div", { id: "pending" }, pending.map(approvalCard)) : el("p", { class: "empty" }, "Nothing waits for a decision."),
    el("h2", {}, "Decided"),
    el("div", { id: "decided" }, decided.map(approvalCard)));
}

function approvalsPage() {
  const container = el("section", { id: "approvals" }, el("p", {}, "Loading..."));
  const live = el("span", { id: "live", class: "badge" }, "connecting");
  show(el("h1", {}, "Approvals ", live), container);
  S.stream = new EventSource("/console/api/approvals/events");
  S.stream.addEventListener("open", () => { live.textContent = "live"; live.className = "badge live"; });
  S.stream.addEventListener("error", () => { live.textContent = "reconnecting"; live.className = "badge"; });
  S.stream.addEventListener("approvals", (event) => { arrived(); renderApprovals(JSON.parse(event.data).approvals, container); });
  S.timers.push(setInterval(() => {
    document.querySelectorAll(".waited").forEach((p) => { p.textContent = "waiting " + ago(Number(p.dataset.since)); });
  }, 1000));
}

// ---------- executions ----------

const STATES = ["", "running", "paused", "awaiting_tool", "completed", "error", "rejected",
                "rolled_back", "cancelled", "dead_letter"];

const PAGE_SIZE = 50;

function pageSize(params, otherwise) {
  const asked = Number(params.get("limit"));
  return Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : otherwise;
}

// "Newest" and "Older" under a list: the same filters, the cursor the server gave.
function pageLinks(section, params, key, next) {
  const at = (cursor) => {
    const q = new URLSearchParams(params);
    if (cursor) q.set(key, cursor); else q.delete(key);
    return "#/" + section + (q.toString() ? "?" + q.toString() : "");
  };
  return [params.get(key) ? el("a", { href: at(null), class: "newest" }, "« Newest") : null,
          params.get(key) && next ? " · " : null,
          next ? el("a", { href: at(next), class: "older" }, "Older »") : null].filter((n) => n !== null);
}

function toEpoch(value) { return value ? String(Date.parse(value + "Z") / 1000) : null; }

async function executionsPage(params) {
  const status = el("select", { name: "status" }, STATES.map((s) => el("option", { value: s, selected: params.get("status") === s }, s || "any status")));
  const workspace = el("input", { name: "workspace", placeholder: "workspace", value: params.get("workspace") || "" });
  const since = el("input", { name: "since", type: "datetime-local", value: params.get("since") || "" });
  const until = el("input", { name: "until", type: "datetime-local", value: params.get("until") || "" });
  const form = el("form", { class: "filters", id: "execution-filters" }, status, workspace, "from ", since, "to ", until,
    el("button", { type: "submit" }, "Filter"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) q.set(k, v);
    location.hash = "#/executions?" + q.toString();
  });
  const table = el("table", { id: "executions" }, el("tr", {}, ["id", "status", "workspace", "principal", "started", "code"].map((h) => el("th", {}, h))));
  const pager = el("p", { class: "pager", id: "executions-pager" });
  show(el("h1", {}, "Executions"), form, table, pager);
  const q = new URLSearchParams({ limit: String(pageSize(params, PAGE_SIZE)) });
  if (params.get("status")) q.set("status", params.get("status"));
  if (params.get("workspace")) q.set("workspace", params.get("workspace"));
  if (toEpoch(params.get("since"))) q.set("since", toEpoch(params.get("since")));
  if (toEpoch(params.get("until"))) q.set("until", toEpoch(params.get("until")));
  if (params.get("before")) q.set("before", params.get("before"));
  const result = await api("GET", "/v1/executions?" + q.toString());
  arrived();
  if (!result.ok) { table.after(el("p", { class: "error" }, errorText(result))); return; }
  pager.replaceChildren(...pageLinks("executions", params, "before", result.data.next_before));
  const rows = document.createDocumentFragment();
  for (const x of result.data.executions) {
    rows.append(el("tr", { "data-execution": x.id },
      el("td", {}, el("a", { href: "#/executions/" + encodeURIComponent(x.id) }, x.id)),
      el("td", {}, el("span", { class: "badge status-" + x.status }, x.status)),
      el("td", {}, x.workspace), el("td", {}, x.principal || ""), el("td", {}, when(x.created_at)),
      el("td", {}, el("code", {}, (x.code || "").split("\n")[0].slice(0, 80)))));
  }
  table.append(rows);
  if (!result.data.executions.length) table.after(el("p", { class: "empty" }, "No executions match."));
}

const PY_TOKENS = /(#[^\n]*)|("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')|\b(and|as|assert|async|await|break|class|continue|def|del|elif|else|except|False|finally|for|from|global|if|import|in|is|lambda|None|nonlocal|not|or|pass|raise|return|True|try|while|with|yield)\b|\b(\d+(?:\.\d+)?)\b/g;

function highlighted(code) {
  const pre = el("pre", { class: "code" });
  let last = 0;
  for (const m of code.matchAll(PY_TOKENS)) {
    if (m.index > last) pre.append(code.slice(last, m.index));
    const kind = m[1] ? "comment" : m[2] ? "string" : m[3] ? "keyword" : "number";
    pre.append(el("span", { class: "tok-" + kind }, m[0]));
    last = m.index + m[0].length;
  }
  pre.append(code.slice(last));
  return pre;
}

function timeline(journal) {
  if (!journal.length) return el("p", { class: "empty" }, "No host calls.");
  return el("ol", { class: "timeline" }, journal.map((c) => el("li", { class: "call " + c.state },
    el("div", {}, el("code", {}, c.namespace + "." + c.method), " ",
       el("span", { class: "badge" }, c.state),
       " ", ((c.updated_at - c.created_at) * 1000).toFixed(1) + " ms",
       c.requires_approval ? el("span", { class: "badge risk-medium" }, "approval") : null),
    el("details", {}, el("summary", {}, "arguments"), el("pre", {}, pretty(c.args))),
    c.error ? el("pre", { class: "error" }, pretty(c.error))
            : el("details", {}, el("summary", {}, "result"), el("pre", {}, pretty(c.result))))));
}

// ---------- trace ----------

function spanLabel(span) {
  const a = span.attributes || {};
  if (span.name === "codemode.host_call" && a["codemode.method"]) {
    return a["codemode.namespace"] + "." + a["codemode.method"] + " #" + a["codemode.seq"] +
      (a["codemode.replayed"] ? " (replayed)" : a["codemode.state"] ? " (" + a["codemode.state"] + ")" : "");
  }
  if (span.name === "codemode.host_call") return "host call: " + (a["codemode.call"] || "?");
  if (span.name.startsWith("codemode.approval")) {
    return span.name.slice("codemode.".length) + (a["codemode.method"] ? " " + a["codemode.namespace"] + "." + a["codemode.method"] : "") +
      (a["codemode.decision"] ? " → " + a["codemode.decision"] : "");
  }
  if (span.name === "codemode.execution") return "execution" + (a["codemode.resumed"] ? " (resumed)" : "") + (a["codemode.status"] ? " → " + a["codemode.status"] : "");
  if (span.name === "codemode.webhook") return "webhook " + (a["codemode.tool"] || "");
  return span.name;
}

// Depth-first by start time, so each span sits under its parent.
function spanTree(spans) {
  const ids = new Set(spans.map((s) => s.span_id));
  const children = new Map();
  for (const s of spans) {
    const parent = s.parent_id && ids.has(s.parent_id) ? s.parent_id : null;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(s);
  }
  const ordered = [];
  const walk = (parent, depth) => {
    for (const s of (children.get(parent) || []).sort((x, y) => x.start - y.start)) {
      ordered.push([s, depth]);
      if (depth < 30) walk(s.span_id, depth + 1);
    }
  };
  walk(null, 0);
  return ordered;
}

function traceView(data) {
  const spans = data.spans || [];
  if (!spans.length) return el("p", { class: "empty" }, "No spans.");
  const t0 = Math.min(...spans.map((s) => s.start));
  const t1 = Math.max(...spans.map((s) => s.end));
  const total = Math.max(t1 - t0, 1e-6);
  const traces = new Set(spans.map((s) => s.trace_id).filter(Boolean)).size;
  const source = data.source === "spans"
    ? spans.length + " spans of " + traces + (traces === 1 ? " trace" : " traces") + ", as tracing recorded them"
    : "from the journal's own timings (" + (data.kept ? "its spans are no longer kept" : "no spans are kept: tracing is off, or SANDBOX_TRACE_KEEP=0") + "): host calls and approval waits only";
  const rows = spanTree(spans).map(([s, depth]) => {
    const bar = el("span", { class: "span-bar" + (s.error ? " error" : "") });
    bar.style.left = ((s.start - t0) / total * 100).toFixed(3) + "%";
    bar.style.width = Math.max((s.end - s.start) / total * 100, 0.2).toFixed(3) + "%";
    const name = el("span", { class: "span-name", title: s.name }, spanLabel(s));
    name.style.paddingLeft = (depth * 14) + "px";
    return el("div", { class: "span " + s.name.replace(/[^a-z0-9]+/gi, "-"), "data-span": s.span_id, "data-name": s.name },
      name, el("span", { class: "span-track" }, bar),
      el("span", { class: "span-ms" }, ((s.end - s.start) * 1000).toFixed(1) + " ms"));
  });
  return el("div", {}, el("p", { class: "meta", id: "trace-source" }, source + " · " + (total * 1000).toFixed(1) + " ms in all"),
    el("div", { class: "trace" }, rows));
}

function traceSection(id) {
  const section = el("section", { id: "trace" }, el("p", { class: "empty" }, "Loading the trace..."));
  api("GET", "/v1/executions/" + encodeURIComponent(id) + "/trace").then((result) => {
    section.replaceChildren(result.ok ? traceView(result.data) : el("p", { class: "error" }, errorText(result)));
  });
  return section;
}

async function executionPage(id) {
  const result = await api("GET", "/v1/executions/" + encodeURIComponent(id));
  arrived();
  if (!result.ok) { show(el("h1", {}, "Execution"), el("p", { class: "error" }, errorText(result))); return; }
  const x = result.data;
  const actions = el("div", { class: "actions" });
  const outcome = el("div", { id: "action-outcome" });
  const act = (verb) => async () => {
    const r = await api("POST", "/v1/executions/" + encodeURIComponent(id) + "/" + verb, verb === "cancel" ? {} : undefined);
    outcome.replaceChildren(el("div", { class: "outcome " + (r.ok ? "ok" : "refused") },
      r.ok ? verb + ": " + (r.data.status || "done") : "Refused: " + errorText(r)));
    if (r.ok) setTimeout(() => executionPage(id), 600);
  };
  if (can("execute") && ["running", "paused", "awaiting_tool", "dead_letter"].includes(x.status))
    actions.append(el("button", { class: "cancel", onclick: act("cancel") }, "Cancel"));
  if (can("execute") && ["completed", "error", "rejected", "cancelled"].includes(x.status))
    actions.append(el("button", { class: "rollback", onclick: act("rollback") }, "Roll back"));
  show(
    el("h1", {}, "Execution ", el("code", {}, x.id), " ", el("span", { class: "badge status-" + x.status, id: "execution-status" }, x.status)),
    el("p", { class: "meta" }, "workspace ", el("code", {}, x.workspace), " · by " + (x.principal || "?") +
       " · started " + when(x.created_at) + " · updated " + when(x.updated_at)),
    actions, outcome,
    el("h2", {}, "Code"), highlighted(x.code || ""),
    el("h2", {}, "Journal"), timeline(x.journal || []),
    el("h2", {}, "Trace"), traceSection(id),
    el("h2", {}, "Logs"), el("pre", { class: "logs" }, (x.logs || []).map((l) => typeof l === "string" ? l : pretty(l)).join("\n")),
    el("h2", {}, "Result"), x.error ? el("pre", { class: "error" }, pretty(x.error)) : el("pre", { id: "result" }, pretty(x.result)),
    el("h2", {}, "Approvals"), el("div", {}, (x.approvals || []).map(approvalCard)));
  if (!["completed", "error", "rejected", "rolled_back", "cancelled"].includes(x.status)) {
    S.stream = new EventSource("/v1/executions/" + encodeURIComponent(id) + "/events");
    let shown = x.status;
    S.stream.onmessage = null;
    const refresh = (event) => {
      try { const data = JSON.parse(event.data); if (data.status && data.status !== shown) { shown = data.status; stopPage(); executionPage(id); } } catch (e) { /* a ping or partial line */ }
    };
    ["completed", "error", "rejected", "cancelled", "paused", "awaiting_tool", "rolled_back", "message"].forEach((t) => S.stream.addEventListener(t, refresh));
  }
}

// ---------- audit ----------

const AUDIT_FIELDS = ["tenant", "principal", "event", "subject"];

function auditQuery(params) {
  const q = new URLSearchParams();
  for (const f of AUDIT_FIELDS) if (params.get(f)) q.set(f, params.get(f));
  if (toEpoch(params.get("since"))) q.set("since", toEpoch(params.get("since")));
  if (toEpoch(params.get("until"))) q.set("until", toEpoch(params.get("until")));
  return q;
}

function verifyStatus(v) {
  if (!v.ok) {
    return el("span", {}, "FAILED at seq ", el("strong", { id: "bad-seq" }, v.first_bad_seq === null ? "?" : String(v.first_bad_seq)), ": " + (v.reason || ""));
  }
  const cp = v.last_checkpoint;
  return el("span", {}, el("strong", {}, "OK"), " · " + v.count + " entries" + (v.scope === "tenant" ? " of tenant " + v.tenant : "") + " · head ",
    el("code", { id: "verify-head" }, v.head || "(empty)"), " · ",
    cp ? el("span", { id: "last-checkpoint" }, "last checkpoint at seq " + cp.seq + ", " + when(cp.time) + " (" + ago(cp.time) + " ago)")
       : el("span", { id: "last-checkpoint" }, "no checkpoint yet"));
}

function compact(value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 120 ? text.slice(0, 119) + "…" : text;
}

function lazyPretty(label, value) {
  // The full body is built only when someone opens it: a page of entries stays light.
  const details = el("details", {}, el("summary", {}, el("code", {}, compact(value))));
  details.addEventListener("toggle", () => {
    if (details.open && details.children.length === 1) details.append(el("pre", {}, pretty(value)));
  }, { once: false });
  return details;
}

async function auditPage(params) {
  const inputs = AUDIT_FIELDS.map((f) => el("input", { name: f, placeholder: f === "subject" ? "subject name=id" : f, value: params.get(f) || "" }));
  const since = el("input", { name: "since", type: "datetime-local", value: params.get("since") || "" });
  const until = el("input", { name: "until", type: "datetime-local", value: params.get("until") || "" });
  const form = el("form", { class: "filters", id: "audit-filters" }, inputs, "from ", since, "to ", until, el("button", { type: "submit" }, "Filter"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) q.set(k, v);
    location.hash = "#/audit?" + q.toString();
  });
  const verify = el("div", { id: "verify", class: "verify" }, "verifying...");
  const filtered = auditQuery(params);
  const exported = new URLSearchParams();
  for (const k of ["tenant", "since", "until"]) if (filtered.get(k)) exported.set(k, filtered.get(k));
  const exportLink = el("a", { id: "export", class: "button", download: "", href: "/v1/audit/export" + (exported.toString() ? "?" + exported.toString() : ""),
                               title: "JSON Lines and the signed manifest, in one tar: sandbox audit verify --export FILE checks it offline" },
    "Export (signed)");
  const table = el("table", { id: "audit" }, el("tr", {}, ["seq", "time", "tenant", "principal", "event", "subject", "body"].map((h) => el("th", {}, h))));
  const pager = el("p", { class: "pager", id: "audit-pager" });
  show(el("h1", {}, "Audit log"), verify, form, el("p", {}, exportLink, " tenant and time filters apply"), table, pager);
  const q = auditQuery(params);
  q.set("order", "desc"); q.set("limit", String(pageSize(params, PAGE_SIZE * 2)));
  if (params.get("before_seq")) q.set("before_seq", params.get("before_seq"));
  // The list shows as soon as it arrives; the verification (a walk of the whole chain) fills
  // in its line when it is done.
  const verifying = api("GET", "/v1/audit/verify").then((verified) => {
    if (!verified.ok) { verify.replaceChildren("verify: " + errorText(verified)); return null; }
    verify.className = "verify " + (verified.data.ok ? "ok" : "bad");
    verify.replaceChildren(verifyStatus(verified.data));
    return verified.data.ok ? null : verified.data.first_bad_seq;
  });
  const listed = await api("GET", "/v1/audit?" + q.toString());
  arrived();
  if (!listed.ok) { table.after(el("p", { class: "error" }, errorText(listed))); return; }
  const rows = document.createDocumentFragment();
  for (const e of listed.data.entries) {
    rows.append(el("tr", { "data-seq": e.seq },
      el("td", {}, e.seq), el("td", {}, when(e.time)), el("td", {}, e.tenant), el("td", {}, e.principal),
      el("td", {}, el("code", {}, e.event)), el("td", {}, compact(e.subject)),
      el("td", {}, lazyPretty("body", e.body))));
  }
  table.append(rows);
  pager.replaceChildren(...pageLinks("audit", params, "before_seq", listed.data.next_before_seq));
  if (!listed.data.entries.length) table.after(el("p", { class: "empty" }, "No entries match."));
  const bad = await verifying;
  if (bad !== null && bad !== undefined) {
    const row = table.querySelector('[data-seq="' + bad + '"]');
    if (row) row.classList.add("bad");
  }
}

// ---------- workspaces ----------

function filesUrl(ws, path) {
  return "/v1/workspaces/" + encodeURIComponent(ws) + "/files" + path.split("/").map(encodeURIComponent).join("/");
}

async function workspacesPage() {
  const result = await api("GET", "/v1/workspaces");
  if (!result.ok) { show(el("h1", {}, "Workspaces"), el("p", { class: "error" }, errorText(result))); return; }
  const names = result.data.workspaces.map((w) => (typeof w === "string" ? w : w.name));
  show(el("h1", {}, "Workspaces"), el("ul", { id: "workspaces" }, names.map((n) =>
    el("li", {}, el("a", { href: "#/workspaces/" + encodeURIComponent(n) }, n)))));
}

async function workspacePage(ws, path) {
  const tree = el("ul", { class: "tree", id: "tree" });
  const viewer = el("section", { id: "viewer", class: "viewer" }, el("p", { class: "empty" }, "Choose a file."));
  show(el("h1", {}, "Workspace ", el("code", {}, ws)), el("div", { class: "split" }, tree, viewer));
  await listDir(ws, "", tree, viewer);
  if (path) openFile(ws, path, viewer);
}

async function listDir(ws, dir, into, viewer) {
  const r = await api("GET", filesUrl(ws, dir));
  if (!r.ok) { into.append(el("li", { class: "error" }, errorText(r))); return; }
  for (const entry of r.data.entries) {
    const path = (dir + "/" + entry.name).replace(/\/+/g, "/");
    if (entry.type === "directory") {
      const children = el("ul", {});
      let opened = false;
      const toggle = el("a", { href: "#", class: "dir" }, entry.name + "/");
      toggle.addEventListener("click", (event) => {
        event.preventDefault();
        if (!opened) { opened = true; listDir(ws, path, children, viewer); } else { children.hidden = !children.hidden; }
      });
      into.append(el("li", {}, toggle, children));
    } else {
      const link = el("a", { href: "#", class: "file", "data-path": path }, entry.name);
      link.addEventListener("click", (event) => { event.preventDefault(); openFile(ws, path, viewer); });
      into.append(el("li", {}, link, el("span", { class: "size" }, entry.size !== undefined ? " " + entry.size + " B" : "")));
    }
  }
}

async function openFile(ws, path, viewer) {
  const url = filesUrl(ws, path);
  const response = await fetch(url, { credentials: "same-origin" });
  const type = (response.headers.get("content-type") || "").split(";")[0];
  const bytes = new Uint8Array(await response.arrayBuffer());
  const head = el("h2", {}, el("code", {}, path), " ", el("span", { class: "meta" }, type + " · " + bytes.length + " bytes"));
  if (!response.ok) { viewer.replaceChildren(head, el("p", { class: "error" }, "HTTP " + response.status)); return; }
  if (type.startsWith("image/") && type !== "image/svg+xml") {
    viewer.replaceChildren(head, el("img", { src: URL.createObjectURL(new Blob([bytes], { type })), alt: path, class: "preview" }));
    return;
  }
  let text = null;
  if (!bytes.includes(0)) { try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { text = null; } }
  if (text === null) { viewer.replaceChildren(head, el("p", { class: "binary" }, "Binary file, " + bytes.length + " bytes.")); return; }
  const lines = text.split("\n");
  viewer.replaceChildren(head, el("table", { class: "lines" }, lines.map((line, i) =>
    el("tr", {}, el("td", { class: "ln" }, i + 1), el("td", {}, el("pre", {}, line))))));
}

// ---------- shell ----------

function route() {
  stopPage();
  S.page += 1;
  const hash = location.hash.slice(1) || "/" + (S.session.sections[0] || "");
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  const section = parts[0];
  document.querySelectorAll("#nav a").forEach((a) => a.classList.toggle("current", a.dataset.section === section));
  if (!S.session.sections.includes(section)) { show(el("p", { class: "empty" }, S.session.sections.length ? "Choose a page." : "This token's scopes show no page of the console.")); return; }
  if (section === "approvals") approvalsPage();
  else if (section === "executions") (parts[1] ? executionPage(parts[1]) : executionsPage(params));
  else if (section === "audit") auditPage(params);
  else if (section === "workspaces") (parts[1] ? workspacePage(parts[1], parts.slice(2).join("/") ? "/" + parts.slice(2).join("/") : "") : workspacesPage());
}

function inlineSession() {
  // The page carries its session (one round trip less); the API is the fallback.
  try { const data = JSON.parse(document.getElementById("session-data").textContent); return data && data.principal ? data : null; } catch (e) { return null; }
}

async function boot() {
  S.session = inlineSession();
  if (!S.session) {
    const result = await api("GET", "/console/api/session");
    if (!result.ok) { show(el("p", { class: "error" }, errorText(result))); return; }
    S.session = result.data;
  }
  document.getElementById("logout-csrf").value = S.session.csrf || "";
  const who = S.session.principal;
  document.getElementById("whoami").textContent = who.name + " @ " + who.tenant;
  document.getElementById("nav").replaceChildren(...S.session.sections.map((s) =>
    el("a", { href: "#/" + s, "data-section": s }, s[0].toUpperCase() + s.slice(1))));
  window.addEventListener("hashchange", route);
  route();
}

document.addEventListener("DOMContentLoaded", boot);
