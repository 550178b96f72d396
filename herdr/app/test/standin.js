// A stand-in for Herdr.app's mod API, shaped as hostFrom (src/shared.js)
// expects it. It records every exec call, answers with recorded jig output,
// and lets a test fire the timers and flip the panel's visibility by hand.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// settle lets the mod's pending promises run.
const settle = () => new Promise((r) => setImmediate(r));

const testdata = path.join(__dirname, "..", "testdata");
const fixture = (name) => fs.readFileSync(path.join(testdata, name), "utf8");

// Recorded jig answers, as exec reports them.
const answers = {
  session: (name) => ({ code: 0, stdout: fixture(typeof name === "string" ? name : "status_full.json"), stderr: "" }),
  none: () => ({ code: 1, stdout: "", stderr: "" }),
  missing: () => ({ code: 127, stdout: "", stderr: "sh: 1: jig: not found\n" }),
  spawnMissing: () => Object.assign(new Error("spawn jig ENOENT"), { code: "ENOENT" }),
  failing: () => ({ code: 3, stdout: "", stderr: "jig: session for-terminal: unsafe state dir: /home/ana/.local/state/jig is writable by others (mode 777)\n" }),
  machineDown: () => new Error("machine devbox is not connected\n    at Core.exec (core.js:12:3)"),
};

function standIn({ spaces, panes, focused, answer }) {
  const host = {
    calls: [],
    drawn: [],
    timers: [],
    pending: [],
    visibleHandler: null,
    answer,
  };
  host.api = {
    spaces: () => spaces,
    panes: () => panes,
    focused: () => focused,
    exec: (opts) => {
      host.calls.push(opts);
      const a = host.answer(opts);
      if (a && typeof a.then === "function") return a;
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
    setInterval: (fn, ms) => {
      host.timers.push({ fn, ms, live: true });
      return host.timers.length - 1;
    },
    clearInterval: (id) => {
      host.timers[id].live = false;
    },
    window: {
      visible: true,
      onVisibilityChange: (fn) => {
        host.visibleHandler = fn;
      },
    },
    render: (view) => host.drawn.push(view),
  };
  host.last = () => host.drawn[host.drawn.length - 1];
  host.liveTimers = () => host.timers.filter((t) => t.live);
  // fire runs the live timers once, as 2 s passing would, and lets the
  // reads they start finish (unless their answer is held back).
  host.fire = async () => {
    for (const t of host.liveTimers()) t.fn();
    await settle();
  };
  host.setVisible = (v) => {
    host.api.window.visible = v;
    host.visibleHandler();
  };
  return host;
}

// oneTab is a space on `machine` (null: this machine) whose active tab shows
// one terminal next to a mod pane (terminal null).
function oneTab(terminal, machine = null) {
  return {
    spaces: [{ id: "s1", active: true, activeTab: "tab2", machine }],
    panes: [
      { id: "p1", tab: "tab1", terminal: "t3" },
      { id: "p2", tab: "tab2", terminal },
      { id: "p3", tab: "tab2", terminal: null },
    ],
    focused: { space: "s1", tab: "tab2", pane: "p2", terminal },
  };
}


module.exports = { standIn, oneTab, answers, fixture, settle };
