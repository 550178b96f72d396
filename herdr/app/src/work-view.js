// workLines is the Work view of a status: the same lines as jig's Go
// panel.Lines (panel/panel.go), cleaned the same way; both are checked
// against herdr/app/testdata/work_full.txt and work_hostile.txt.
const MAX_OUTPUTS = 12;
const MAX_RECENT = 8;
const BAR_CELLS = 20;
const GLYPH_ATTENTION = "◐";

function workLines(s, now) {
  const l = [];
  let head = String(s.session || "").slice(0, 8);
  if (s.terminal) head = s.terminal + " · " + head;
  l.push(head + " · updated " + age(now, s.updatedAt) + " ago");

  let model = "no model";
  if (s.model) model = s.model.name || s.model.id;
  let line = s.state + " · " + model;
  if (s.thinking) line += " · thinking " + s.thinking;
  l.push(line);
  if (s.attention) l.push(GLYPH_ATTENTION + " " + waits(s.attention) + " · for " + age(now, s.attention.since));

  const ctx = s.context || {};
  l.push("context " + bar(ctx.percent) + " " + percentText(ctx.percent) + "  " +
    tokensOrUnknown(ctx.tokens) + " / " + tokensOrUnknown(ctx.window));

  const usage = s.usage || {};
  const tools = s.tools || { active: 0, total: 0 };
  line = "cost " + money(usage.cost) + " · tools " + tools.active + "/" + tools.total;
  const off = offSwitches(s.switches);
  if (off.length > 0) line += " · off: " + off.join(", ");
  l.push(line);
  line = rateLimitsLine(s.rateLimits, now);
  if (line) l.push(line);

  if (s.ticket) l.push("ticket " + s.ticket.key + (s.ticket.title ? " " + s.ticket.title : ""));
  if (s.workflow) {
    const w = s.workflow;
    const stages = w.stages || [];
    line = "stage " + w.current;
    const i = stages.indexOf(w.current);
    if (i >= 0) line += " (" + (i + 1) + "/" + stages.length + ")";
    line += " · " + w.name;
    if (/^\d{4}-\d\d-\d\dT/.test(w.since || "")) line += " · for " + age(now, w.since);
    if (w.problem) line += " · problem: " + w.problem;
    l.push(line);
  }

  const outputs = s.outputs || [];
  l.push("", "outputs (" + outputs.length + ")");
  l.push(...outputLines(s, outputs, now));

  const recent = s.recent || [];
  // The decision column's label stands over it, as in panel/panel.go.
  l.push("", recent.length === 0 ? "recent calls" : "recent calls              decision");
  if (recent.length === 0) l.push("  none yet");
  for (let i = 0; i < recent.length; i++) {
    if (i === MAX_RECENT) {
      l.push("  … " + (recent.length - MAX_RECENT) + " more");
      break;
    }
    const c = recent[i];
    const name = c.tool + (c.action && c.action !== c.tool ? " " + c.action : ""); // "read read" says nothing twice
    line = "  " + outcomeMark(c.outcome) + " " + age(now, c.at).padEnd(4) + " " + clean(name).padEnd(16) + " " +
      clean(c.decision || "-").padEnd(6) + " " + c.outcome; // padded as shown: cleaned first
    if (c.answer) line += " · " + c.answer;
    l.push(line.replace(/ +$/, "")); // spaces only, as Go's strings.TrimRight
  }

  const r = s.lastRequest;
  if (r) {
    l.push("", "last request " + (r.ok ? "ok" : "failed") + " · " + age(now, r.at) + " ago");
    l.push("  " + r.message);
  }
  return l.map(clean);
}

// waits is render.Waits (render/attention.go): what the session waits for.
function waits(a) {
  if (a.kind === "permission") return a.tool ? clean(a.tool) + " waits for approval" : "a tool call waits for approval";
  if (a.kind === "question") return "a question waits for an answer";
  if (a.kind === "error") return "stopped on an error";
  return "waits for you";
}

// rateLimitsLine is panel.rateLimitsLine: "limits 5h 42% (resets in 1h) · 7d 18%".
function rateLimitsLine(r, now) {
  const parts = [];
  for (const [key, label] of [["fiveHour", "5h"], ["weekly", "7d"]]) {
    const w = r && r[key];
    if (!w) continue;
    let part = label + " " + percentText(w.usedPercent);
    if (w.resetsAt) part += " (resets in " + until(now, w.resetsAt) + ")";
    parts.push(part);
  }
  return parts.length ? "limits " + parts.join(" · ") : "";
}

function outputLines(s, outputs, now) {
  const shown = outputs.slice(0, MAX_OUTPUTS);
  const order = [];
  const groups = new Map();
  for (const o of shown) {
    const key = o.repo || "";
    if (!groups.has(key)) {
      order.push(key);
      groups.set(key, []);
    }
    groups.get(key).push(o);
  }
  const l = [];
  if (shown.length === 0) l.push("  none yet");
  for (const key of order) {
    l.push("  " + (key ? baseName(key) : "other files"));
    for (const o of groups.get(key)) {
      l.push("    " + clean(o.action).padEnd(7) + " " + relPath(s.cwd, o.path) + " · " + age(now, o.at));
    }
  }
  if (outputs.length > shown.length) l.push("  … " + (outputs.length - shown.length) + " more");
  return l;
}

function offSwitches(sw) {
  const off = [];
  for (const group of [(sw && sw.tools) || {}, (sw && sw.skills) || {}]) {
    for (const [name, on] of Object.entries(group)) if (!on) off.push(name);
  }
  return off.sort();
}

function outcomeMark(outcome) {
  if (outcome === "ok") return "✓";
  if (outcome === "error") return "✗";
  return "…";
}

function relPath(cwd, p) {
  const base = cwd && cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  if (cwd && p.startsWith(base + "/")) return p.slice(base.length + 1);
  return p;
}

function baseName(p) {
  const t = p.replace(/\/+$/, "");
  return t.slice(t.lastIndexOf("/") + 1);
}

function bar(p) {
  let filled = typeof p === "number" ? roundHalfUp((p * BAR_CELLS) / 100) : 0;
  filled = Math.max(0, Math.min(BAR_CELLS, filled));
  return "█".repeat(filled) + "░".repeat(BAR_CELLS - filled);
}

function percentText(p) {
  return typeof p === "number" ? roundHalfUp(p) + "%" : "?";
}
