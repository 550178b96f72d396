// A mod is one self-contained main.js (build.js assembles it), so both mods
// carry this part: the adapter to Herdr.app's mod API, running jig through
// exec, polling, and the number formats. Every format uses integer arithmetic so it prints exactly what
// jig's Go code prints (panel/panel.go, render/context.go).

const POLL_MS = 2000;
const EXEC_TIMEOUT_S = 10; // herdr-core's exec takes seconds; a status read is quick
const REQUEST_TIMEOUT_S = 20; // `jig request … --wait` waits up to ~10 s for the session
const SCHEMA = 1;

// hostFrom adapts Herdr.app's mod API to the few calls the panels make. It
// is the only code that touches that API, whose source is not public: the
// shapes it assumes are listed in herdr/README.md ("Herdr.app API").
function hostFrom(api) {
  const win = api.window || {};
  const timers = typeof api.setInterval === "function" ? api : globalThis;
  return {
    // The terminal shown in the active tab of the active space: { terminal, on }.
    // focused() alone can name a terminal of another tab, so it is used
    // only to pick among the active tab's terminals (and for the tab when
    // there is no spaces()).
    shownTerminal() {
      const f = (typeof api.focused === "function" && api.focused()) || {};
      const spaces = typeof api.spaces === "function" ? api.spaces() || [] : [];
      const space = spaces.find((s) => s.active) || spaces[0] || { activeTab: f.tab, machine: null };
      const inTab = (api.panes() || []).filter((p) => p.tab === space.activeTab && p.terminal);
      if (inTab.length === 0) return null;
      const pane = inTab.find((p) => p.id === f.pane) || inTab[0];
      return splitAddress(pane.terminal, space.machine);
    },
    exec(argv, on, timeout) {
      const opts = { argv, timeout };
      if (on) opts.on = on;
      return api.exec(opts);
    },
    every(ms, fn) {
      const id = timers.setInterval(fn, ms);
      return () => timers.clearInterval(id);
    },
    visible() {
      return win.visible !== false;
    },
    onVisible(fn) {
      if (typeof win.onVisibilityChange === "function") win.onVisibilityChange(() => fn(win.visible !== false));
    },
    draw(view) {
      api.render(view);
    },
  };
}

// splitAddress reads herdr-core's terminal address: "t7" here, or
// "machine/t7" on another machine (also when the space is remote).
function splitAddress(address, spaceMachine) {
  const i = address.indexOf("/");
  if (i > 0) return { terminal: address.slice(i + 1), on: address.slice(0, i) };
  return { terminal: address, on: spaceMachine || null };
}

function where(on) {
  return on ? "on " + on : "on this machine";
}

// JIG is the jig the mods run on this machine: `jig install herdr` writes
// the absolute path of the jig that installed them here, because Herdr.app,
// started from a desktop, may have a PATH without jig. On another machine
// (exec's `on`) the mods run `jig` from that machine's PATH.
const JIG = "jig";

function jigOn(on) {
  return on ? "jig" : JIG;
}

// readSession runs `jig session for-terminal T --json` and says what came
// back: { status } or { quiet } — a single line for the panel, never a trace.
async function readSession(host, t) {
  const argv = [jigOn(t.on), "session", "for-terminal", t.terminal, "--json"];
  let res;
  try {
    res = await host.exec(argv, t.on, EXEC_TIMEOUT_S);
  } catch (err) {
    return { quiet: quietExecError(err, t.on) };
  }
  const code = res && typeof res.code === "number" ? res.code : -1;
  const out = (res && res.stdout) || "";
  if (code === 127) return { quiet: "jig is not installed " + where(t.on) };
  if (code !== 0) {
    if (out.trim() === "" && (code === 1 || code === 5)) {
      return { quiet: "no jig session in terminal " + t.terminal, waiting: true };
    }
    return { quiet: "jig failed (exit " + code + "): " + firstLine(res.stderr) };
  }
  let st;
  try {
    st = JSON.parse(out);
  } catch {
    return { quiet: "jig answered something that is not a status: " + firstLine(out) };
  }
  if (!st || typeof st !== "object") return { quiet: "jig answered something that is not a status" };
  if (typeof st.schema === "number" && st.schema > SCHEMA) {
    return { quiet: "the session writes status schema " + st.schema + "; this panel reads " + SCHEMA + ": update jig's Herdr mods" };
  }
  return { status: st };
}

function quietExecError(err, on) {
  const msg = firstLine(err && err.message ? err.message : String(err));
  if (/ENOENT|not found|no such file/i.test(msg)) return "jig is not installed " + where(on);
  if (on) return "machine " + on + " is not reachable: " + msg;
  return "could not run jig: " + msg;
}

function firstLine(s) {
  const line = String(s || "").trim().split("\n")[0];
  return line.length > 160 ? line.slice(0, 159) + "…" : line || "no message";
}

// poller runs tick every POLL_MS while the panel is visible, never two at
// once, and stops the timer while hidden.
function poller(host, tick) {
  let stop = null;
  let running = false;
  const guarded = async () => {
    if (running) return;
    running = true;
    try {
      await tick();
    } catch {
      // A tick draws its own errors; one that still escapes (the host's
      // draw failing) must not become an unhandled rejection in the host.
    } finally {
      running = false;
    }
  };
  const show = (visible) => {
    if (visible && !stop) {
      stop = host.every(POLL_MS, guarded);
      guarded();
    } else if (!visible && stop) {
      stop();
      stop = null;
    }
  };
  host.onVisible(show);
  show(host.visible());
  // stop is for a mod being unloaded (and tests): no timer is left behind.
  return { tick: guarded, running: () => stop !== null, stop: () => show(false) };
}

function tokens(n) {
  if (n < 1000) return String(n);
  if (n < 9950) {
    const t = Math.floor((n + 50) / 100);
    return Math.floor(t / 10) + "." + (t % 10) + "k";
  }
  if (n < 999500) return Math.floor((n + 500) / 1000) + "k";
  const t = Math.floor((n + 50000) / 100000);
  return Math.floor(t / 10) + "." + (t % 10) + "M";
}

function tokensOrUnknown(n) {
  return typeof n === "number" ? tokens(n) : "?";
}

function tenths(part, whole) {
  if (!(whole > 0)) return "?";
  const t = Math.floor((part * 1000 + Math.floor(whole / 2)) / whole);
  return Math.floor(t / 10) + "." + (t % 10) + "%";
}

function roundHalfUp(x) {
  return Math.floor(x + 0.5);
}

function money(c) {
  if (typeof c !== "number") return "?";
  const cents = roundHalfUp(c * 100);
  return "$" + Math.floor(cents / 100) + "." + String(cents % 100).padStart(2, "0");
}

function age(now, at) {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return "?";
  return duration(now - t);
}

// until is render.Until: how long until the time at.
function until(now, at) {
  const t = Date.parse(at);
  if (Number.isNaN(t)) return "?";
  return duration(t - now);
}

// duration is render.Duration for milliseconds: 5s, 3m, 2h, 4d.
function duration(ms) {
  const secs = Math.trunc(ms / 1000);
  if (secs < 0) return "0s";
  if (secs < 60) return secs + "s";
  if (secs < 3600) return Math.floor(secs / 60) + "m";
  if (secs < 48 * 3600) return Math.floor(secs / 3600) + "h";
  return Math.floor(secs / 86400) + "d";
}

// clean is render.Clean (render/render.go), the one rule for text an agent
// wrote before anyone sees it: control characters (C0, DEL, C1, U+2028,
// U+2029) become "?", so an escape sequence shows as inert text; format
// characters (bidi controls, zero width and tag characters) but the two
// joiners are dropped; a lone surrogate becomes U+FFFD, as Go reads it.
// render/testdata/clean_cases.json and clean_rule.txt hold both to it.
const FORMAT_RANGES = [
  [0x00ad, 0x00ad], [0x0600, 0x0605], [0x061c, 0x061c], [0x06dd, 0x06dd],
  [0x070f, 0x070f], [0x0890, 0x0891], [0x08e2, 0x08e2], [0x180e, 0x180e],
  [0x200b, 0x200b], [0x200e, 0x200f], [0x202a, 0x202e], [0x2060, 0x2064],
  [0x2066, 0x206f], [0xfeff, 0xfeff], [0xfff9, 0xfffb], [0x110bd, 0x110bd],
  [0x110cd, 0x110cd], [0x13430, 0x1343f], [0x1bca0, 0x1bca3], [0x1d173, 0x1d17a],
  [0xe0001, 0xe0001], [0xe0020, 0xe007f],
];

function isFormat(r) {
  for (const [lo, hi] of FORMAT_RANGES) {
    if (r < lo) return false;
    if (r <= hi) return true;
  }
  return false;
}

function clean(s) {
  let out = "";
  for (const ch of String(s)) {
    const r = ch.codePointAt(0);
    if (r < 0x20 || (r >= 0x7f && r < 0xa0) || r === 0x2028 || r === 0x2029) out += "?";
    else if (r >= 0xd800 && r <= 0xdfff) out += "\ufffd";
    else if (!isFormat(r)) out += ch;
  }
  return out;
}

// cleanView is a view as the host draws it: every text in it cleaned, the
// lines, the note (jig's answer) and the buttons' labels (tool names).
function cleanView(v) {
  return {
    title: clean(v.title),
    lines: v.lines.map(clean),
    note: v.note == null ? null : clean(v.note),
    actions: v.actions.map((a) => ({ ...a, label: clean(a.label) })),
  };
}
