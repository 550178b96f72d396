// jig serve's page. Every string from the server is set as text (text
// nodes, textContent), never as HTML: model names, tool names and
// transcript text are hostile input. No framework, no build step.
"use strict";

const csrf = document.querySelector('meta[name="jig-csrf"]').content;
const readOnly = document.body.dataset.readOnly === "1";
const main = document.getElementById("main");

// el makes an element; string children become text nodes.
function el(tag, props, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(typeof kid === "string" || typeof kid === "number" ? document.createTextNode(String(kid)) : kid);
  }
  return e;
}

function setText(id, text) { document.getElementById(id).textContent = text; }

async function getJSON(url) {
  const r = await fetch(url, { credentials: "same-origin" });
  const body = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function post(url, data) {
  const r = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Jig-Csrf": csrf },
    body: JSON.stringify(data || {}),
  });
  const text = await r.text();
  let body;
  try { body = JSON.parse(text); } catch { body = { error: text.trim() || r.statusText }; }
  if (!r.ok && r.status !== 202) throw new Error(body.error || r.statusText);
  return body;
}

const pct = (p) => (p === null || p === undefined ? "-" : Math.round(p) + "%");
const money = (c) => (c === null || c === undefined ? "-" : "$" + c.toFixed(2));
function ago(t) {
  if (!t) return "-";
  const s = Math.max(0, Math.round((Date.now() - Date.parse(t)) / 1000));
  if (s < 60) return s + "s";
  if (s < 3600) return Math.floor(s / 60) + "m";
  if (s < 86400) return Math.floor(s / 3600) + "h" + String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  return Math.floor(s / 86400) + "d";
}
const sessionURL = (row) => "/s/" + encodeURIComponent(row.host) + "/" + encodeURIComponent(row.session);
const apiURL = (host, id) => "/api/s/" + encodeURIComponent(host) + "/" + encodeURIComponent(id);
const rowKey = (row) => row.host + " " + row.session;

function stateCell(row) {
  if (row.error) return el("span", { class: "down" }, "down");
  if (row.attention) return el("span", { class: "attention" }, "◐ " + row.attention + (row.tool ? " " + row.tool : ""));
  return el("span", { class: row.state }, row.state === "busy" ? "● busy" : "○ " + (row.state || "?"));
}

// events opens the one event stream; onOpen reads the whole state again
// (after a reconnect too), onChange gets each change.
function events(onOpen, onChange) {
  const es = new EventSource("/api/events");
  es.onopen = () => { setText("conn", "live"); onOpen(); };
  es.onerror = () => setText("conn", "reconnecting…");
  es.onmessage = (ev) => onChange(JSON.parse(ev.data));
  return es;
}

// ---- the board ----

function boardPage() {
  setText("title", "board");
  const rows = new Map();
  let order = [];
  let notify = false;
  const tbody = el("tbody", { id: "rows" });
  const empty = el("p", { class: "dim", id: "empty" }, "No live session.");
  const bell = el("button", { id: "notify", onclick: async () => {
    if (!("Notification" in window)) { bell.textContent = "this browser gives notifications only on https or localhost"; return; }
    notify = (await Notification.requestPermission()) === "granted";
    bell.textContent = notify ? "notifications on" : "notifications refused";
  } }, "notify me when a session waits");
  main.append(el("table", {},
    el("thead", {}, el("tr", {}, ["", "agent", "project", "model", "context", "cost", "5 h", "for", "host"].map(
      (h, i) => el("th", { class: (i >= 4 && i <= 7 ? "num" : "") + ([1, 3, 6, 8].includes(i) ? " wide" : "") }, h)))),
    tbody), empty, el("p", {}, bell));

  function line(row) {
    const tr = el("tr", { "data-key": rowKey(row), onclick: () => { if (!row.error) location.href = sessionURL(row); } });
    if (row.error) {
      tr.append(el("td", {}, stateCell(row)), el("td", { colspan: 7, class: "down" }, row.error), el("td", {}, row.host));
      return tr;
    }
    // "wide" cells give way first on a narrow screen (a phone)
    tr.append(el("td", { class: "state" }, stateCell(row)), el("td", { class: "wide" }, row.agent || "-"),
      el("td", { class: "project" }, row.project || "-"), el("td", { class: "model wide" }, row.model || "-"),
      el("td", { class: "num" }, pct(row.contextPercent)), el("td", { class: "num" }, money(row.cost)),
      el("td", { class: "num wide" }, pct(row.rateLimitPercent)), el("td", { class: "num for", "data-since": row.since }, ago(row.since)),
      el("td", { class: "wide" }, row.host));
    return tr;
  }
  // draw changes the rows that changed in place, and moves rows only when
  // the order changed: a write to one of 500 sessions touches one row.
  const trs = new Map();
  function draw(changed) {
    for (const k of changed) {
      const old = trs.get(k), row = rows.get(k);
      if (!row) { if (old) old.remove(); trs.delete(k); continue; }
      const tr = line(row);
      if (old) old.replaceWith(tr);
      trs.set(k, tr);
    }
    const want = order.filter((k) => trs.has(k));
    let cur = tbody.firstElementChild, same = true;
    for (const k of want) {
      if (!cur || cur.dataset.key !== k) { same = false; break; }
      cur = cur.nextElementSibling;
    }
    if (!same || cur) tbody.replaceChildren(...want.map((k) => trs.get(k)));
    empty.hidden = want.length > 0;
  }
  function say(row) {
    if (notify && row.attention) new Notification((row.project || row.session) + ": " + row.attention + (row.tool ? " " + row.tool : ""));
  }
  async function load() {
    const b = await getJSON("/api/board");
    const changed = new Set([...rows.keys()]);
    rows.clear();
    for (const r of b.rows) { rows.set(rowKey(r), r); changed.add(rowKey(r)); }
    order = b.order;
    draw(changed);
  }
  events(load, (c) => {
    const changed = new Set(c.gone);
    for (const r of c.rows) {
      const before = rows.get(rowKey(r));
      if (!(before && before.attention) && r.attention) say(r);
      rows.set(rowKey(r), r);
      changed.add(rowKey(r));
    }
    for (const k of c.gone) rows.delete(k);
    order = c.order;
    draw(changed);
  });
  setInterval(() => { for (const td of tbody.querySelectorAll("td.for")) td.textContent = ago(td.dataset.since); }, 1000);
}

// ---- one session ----

function sessionPage() {
  const [, , hostPart, idPart] = location.pathname.split("/");
  const host = decodeURIComponent(hostPart), id = decodeURIComponent(idPart);
  const api = apiURL(host, id);
  const key = host + " " + id;
  const head = el("section", { id: "head" });
  const answer = el("p", { id: "answer" });
  const detail = el("div", { id: "detail" });
  const branches = el("section", { id: "branches" });
  const convo = el("section", { id: "conversation" });
  main.append(head, answer, detail, branches, convo);
  let leaf = "";       // the branch shown; "" the active one
  let paged = false;   // older pages loaded: do not replace them on a change
  let info = null;

  function show(text, ok) {
    answer.className = ok ? "answer-ok" : "answer-bad";
    answer.textContent = text;
  }
  async function act(what, path, data) {
    show(what + "…", true);
    try {
      const r = await post(api + path, data);
      if (r.waiting) show(what + ": sent (request " + r.id + "); the session has not answered yet", true);
      else if (r.answer) show(what + ": " + (r.answer.message || (r.answer.ok ? "done" : "refused")), r.answer.ok);
      else if (r.path) { show(what + ": new session " + r.path, true); if (info && info.tree) loadLeaves(); }
      else show(what + ": done", true);
    } catch (e) {
      show(what + ": " + e.message, false);
    }
  }

  function drawStatus(d) {
    const row = d.row, st = d.status || {};
    setText("title", (row.project || row.session) + " · " + (row.agent || "agent") + " · " + row.host);
    head.replaceChildren(
      el("div", { class: "grid" },
        "state", el("span", { id: "state" }, stateCell(row)),
        "model", el("span", { id: "model" }, row.model || "-", st.thinking ? " · thinking " + st.thinking : ""),
        "session", el("span", {}, row.session),
        "folder", el("span", {}, st.cwd || "-"),
        "context", el("span", {}, contextBar(st.context || {}), " ", pct(row.contextPercent),
          st.context && st.context.tokens ? " · " + st.context.tokens + " / " + (st.context.window || "?") + " tokens" : ""),
        "cost", el("span", {}, money(row.cost), st.usage ? " · in " + st.usage.input + " out " + st.usage.output +
          " cache " + st.usage.cacheRead + "/" + st.usage.cacheWrite : ""),
        "limits", el("span", {}, limits(st.rateLimits)),
        "ticket", el("span", {}, st.ticket ? st.ticket.key + (st.ticket.title ? " " + st.ticket.title : "") : "-",
          st.workflow ? " · " + st.workflow.name + ": " + st.workflow.current : ""),
      ),
      el("p", {},
        el("button", { id: "reload", disabled: readOnly, onclick: () => act("reload", "/reload") }, "reload when idle"), " ",
        el("button", { id: "focus", disabled: readOnly || !row.terminal, onclick: () => act("focus", "/focus") }, "focus its pane")),
    );
    const det = st.contextDetail || {};
    detail.replaceChildren(...[
      parts(det.parts || []),
      switches("tool", det.tools || [], (st.switches || {}).tools || {}, row.tools || []),
      switches("skill", det.skills || [], (st.switches || {}).skills || {}, []),
      outputs(st.outputs || []), recent(st.recent || []),
      st.lastRequest ? el("p", { class: "dim", id: "last-request" }, "last request: " + st.lastRequest.message) : null,
    ].filter(Boolean));
  }
  function contextBar(c) {
    const fill = el("span");
    fill.style.width = Math.min(100, Math.max(0, c.percent || 0)) + "%"; // CSSOM, which the CSP allows
    return el("span", { class: "bar" }, fill);
  }
  function limits(l) {
    if (!l) return "-";
    const w = (name, x) => (x ? name + " " + pct(x.usedPercent) + (x.resetsAt ? " (resets " + new Date(x.resetsAt).toLocaleTimeString() + ")" : "") : null);
    return [w("5 h", l.fiveHour), w("week", l.weekly)].filter(Boolean).join(" · ") || "-";
  }
  function parts(list) {
    if (!list.length) return null;
    return el("section", {}, el("h2", {}, "what fills the context"),
      el("div", { class: "grid" }, list.map((p) => [p.name, String(p.tokens) + " tokens"])));
  }
  function switches(kind, list, sw, rowTools) {
    const names = new Map();
    for (const t of list) names.set(t.name, { off: !!t.off, inactive: !!t.inactive });
    for (const t of rowTools) if (!names.has(t.name)) names.set(t.name, { off: t.off });
    for (const [n, on] of Object.entries(sw)) names.set(n, { ...(names.get(n) || {}), off: !on });
    if (!names.size) return null;
    return el("section", { id: kind + "s" }, el("h2", {}, kind + "s"),
      [...names].sort().map(([name, t]) => el("div", { class: "switch", "data-name": name },
        el("span", { class: t.off ? "off" : "" }, name), t.inactive ? el("span", { class: "dim" }, "inactive") : null,
        el("button", { disabled: readOnly, "data-switch": kind + ":" + name,
          onclick: () => act(kind + " " + name + (t.off ? " on" : " off"), "/switch", { kind, name, on: !!t.off }) },
        t.off ? "turn on" : "turn off"))));
  }
  function outputs(list) {
    if (!list.length) return null;
    return el("section", {}, el("h2", {}, "outputs"),
      el("div", { class: "grid" }, list.slice(0, 20).map((o) => [o.action, o.path + " · " + ago(o.at)])));
  }
  function recent(list) {
    if (!list.length) return null;
    return el("section", {}, el("h2", {}, "recent calls"),
      el("div", { class: "grid" }, list.map((c) => [c.outcome + " " + ago(c.at),
        c.tool + (c.action ? " " + c.action : "") + (c.decision ? " · " + c.decision : "")])));
  }

  function message(m) {
    const who = el("div", { class: "who" }, el("span", {}, m.role), el("span", {}, m.at ? new Date(m.at).toLocaleString() : ""));
    if (info && info.tree && m.id && !readOnly) {
      who.append(el("button", { class: "fork", "data-entry": m.id, onclick: () => act("fork", "/fork", { at: m.id }) }, "fork here"));
    }
    return el("div", { class: "msg " + m.role, "data-id": m.id || null }, who,
      m.text ? el("div", { class: "text" }, m.text) : null,
      (m.calls || []).map((c) => el("details", { class: "call" + (c.error ? " err" : "") },
        el("summary", {}, c.name + (c.done ? (c.error ? " ✗" : " ✓") : " …")),
        el("pre", { class: "input" }, c.input), c.done ? el("pre", { class: "result" }, c.result) : null)));
  }
  async function loadMessages(before) {
    const q = new URLSearchParams();
    if (before) q.set("before", before);
    if (leaf) q.set("leaf", leaf);
    const page = await getJSON(api + "/messages?" + q);
    const list = page.messages.map(message);
    const older = page.before ? el("button", { id: "older", onclick: (e) => { e.target.remove(); paged = true; loadMessages(page.before); } }, "older messages") : null;
    if (before) {
      convo.querySelector("h2").after(...[older, ...list].filter(Boolean));
    } else {
      convo.replaceChildren(el("h2", {}, "conversation" + (leaf ? " · branch " + leaf : "")), ...[older, ...list].filter(Boolean));
      if (!list.length) convo.append(el("p", { class: "dim" }, "No message yet."));
    }
  }
  async function loadLeaves() {
    const t = await getJSON(api + "/leaves");
    branches.replaceChildren(el("h2", {}, "branches"), ...t.leaves.map((l) => el("div", { class: "leaf" + ((leaf ? l.id === leaf : l.active) ? " active" : "") },
      el("button", { "data-leaf": l.id, onclick: () => { leaf = l.active ? "" : l.id; paged = false; loadMessages(); loadLeaves(); } }, "show"),
      el("span", {}, l.id), el("span", { class: "dim" }, (l.active ? "active · " : "") + l.depth + " entries"),
      el("span", {}, l.name || l.prompt || ""))));
  }
  async function load() {
    try {
      info = await getJSON(api);
    } catch (e) {
      head.replaceChildren(el("p", { class: "down", id: "ended" }, e.message));
      return;
    }
    drawStatus(info);
    if (info.conversation && !paged) await loadMessages();
    else if (!info.conversation) convo.replaceChildren(el("h2", {}, "conversation"),
      el("p", { class: "dim" }, info.local ? "No transcript jig can read for this session." : "The conversation stays on its own machine."));
    if (info.tree && !branches.childElementCount) await loadLeaves();
  }
  events(load, (c) => {
    if (c.gone.includes(key)) head.prepend(el("p", { class: "down", id: "ended" }, "the session has ended"));
    if (c.rows.some((r) => rowKey(r) === key)) load();
  });
}

if (document.body.dataset.page === "board") boardPage();
else sessionPage();
