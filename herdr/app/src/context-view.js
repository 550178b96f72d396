// contextLines draws a session's contextDetail: the same lines as jig's Go
// render.ContextLines (render/context.go), cleaned the same way; both are
// checked against herdr/app/testdata/context_full.txt and context_hostile.txt.
const GRID_SIDE = 10;
const PART_GLYPHS = ["█", "▓", "▒", "░", "▞", "▚", "■", "▪", "◆", "◇"];
const FREE_GLYPH = "·";

function contextLines(d) {
  if (!d) return ["no context detail yet: the session reports it after its first turn"];
  const dTokens = d.tokens || 0;
  let parts = d.parts || [];
  if (parts.length === 0 && dTokens > 0) parts = [{ name: "used", tokens: dTokens }];
  let sum = 0;
  for (const p of parts) sum += Math.max(p.tokens, 0);
  let base = Math.max(sum, dTokens);
  const win = typeof d.window === "number" ? d.window : null;
  if (win !== null && win >= base && win > 0) base = win;

  const l = [];
  if (win !== null && win > 0) {
    l.push("context " + tokens(dTokens) + " / " + tokens(win) + " tokens (" + tenths(dTokens, win) + ")");
  } else {
    l.push("context " + tokens(dTokens) + " tokens (window unknown)");
  }

  const cells = gridCells(parts, sum, base);
  const legend = parts.map((p, i) =>
    glyph(i) + " " + clean(p.name).padEnd(12) + " " + tokens(p.tokens).padStart(6) + " " + tenths(p.tokens, base).padStart(6));
  if (base > sum) {
    legend.push(FREE_GLYPH + " " + "free".padEnd(12) + " " + tokens(base - sum).padStart(6) + " " + tenths(base - sum, base).padStart(6));
  }
  const rows = Math.max(GRID_SIDE, legend.length);
  for (let r = 0; r < rows; r++) {
    let row = r < GRID_SIDE ? cells.slice(r * GRID_SIDE, (r + 1) * GRID_SIDE).join(" ") : " ".repeat(2 * GRID_SIDE - 1);
    if (r < legend.length) row += "   " + legend[r];
    l.push(row);
  }

  if ((d.tools || []).length > 0) l.push("", "tools", ...toolLines(d.tools));
  if ((d.skills || []).length > 0) l.push("", "skills", ...d.skills.map((it) => itemLine("  ", it)));
  if ((d.files || []).length > 0) l.push("", "files", ...d.files.map((it) => itemLine("  ", it)));
  return l.map(clean);
}

function gridCells(parts, sum, base) {
  const total = GRID_SIDE * GRID_SIDE;
  const used = base > 0 ? Math.min(Math.floor((sum * total + Math.floor(base / 2)) / base), total) : 0;
  const share = parts.map((p) => (sum > 0 && p.tokens > 0 ? Math.floor((p.tokens * used) / sum) : 0));
  const rem = parts.map((p) => (sum > 0 && p.tokens > 0 ? (p.tokens * used) % sum : 0));
  let given = share.reduce((a, b) => a + b, 0);
  for (; given < used; given++) {
    let best = -1;
    for (let i = 0; i < parts.length; i++) {
      if (parts[i].tokens > 0 && (best < 0 || rem[i] > rem[best])) best = i;
    }
    share[best]++;
    rem[best] = -1;
  }
  const cells = [];
  parts.forEach((_, i) => {
    for (let k = 0; k < share[i]; k++) cells.push(glyph(i));
  });
  while (cells.length < total) cells.push(FREE_GLYPH);
  return cells;
}

function toolLines(tools) {
  const order = [];
  const bySource = new Map();
  for (const t of tools) {
    const src = t.source || "other";
    if (!bySource.has(src)) {
      order.push(src);
      bySource.set(src, []);
    }
    bySource.get(src).push(t);
  }
  const l = [];
  for (const src of order) {
    const items = bySource.get(src);
    const sum = items.reduce((a, t) => a + t.tokens, 0);
    l.push("  " + clean(src).padEnd(22) + " " + tokens(sum).padStart(6));
    for (const t of items) l.push(itemLine("    ", { ...t, source: "" }));
  }
  return l;
}

function itemLine(indent, it) {
  let line = indent + clean(it.name).padEnd(24 - indent.length) + " " + tokens(it.tokens).padStart(6);
  if (it.source) line += "  " + it.source;
  if (it.off) line += "  (off)";
  if (it.inactive) line += "  (inactive)";
  return line;
}

function glyph(i) {
  return PART_GLYPHS[i % PART_GLYPHS.length];
}
