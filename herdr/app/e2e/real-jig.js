// The Work and Context mods against a real jig binary: exec runs the
// program for real, so the argv, jig's exit codes and its JSON are jig's
// own. Run by go test ./herdr (TestModsAgainstRealJig), which builds jig,
// writes a session in terminal t7 and says what the view must show. It lives
// outside test/ so that a plain `node --test herdr/app/` does not pick it up
// without the environment go test gives it.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const { execFile } = require("node:child_process");
const { mountWork } = require("../work/main.js");
const { mountContext } = require("../context/main.js");

const bin = process.env.JIG_E2E_BIN;
const now = () => Date.parse(process.env.JIG_E2E_NOW);
const want = (name) => fs.readFileSync(process.env["JIG_E2E_WANT_" + name], "utf8");

// realHost is hostFrom's shape over a real process: local only (no `on`).
function realHost(terminal, drawn) {
  return {
    calls: [],
    shownTerminal: () => ({ terminal, on: null }),
    exec(argv, on, timeout) {
      this.calls.push(argv);
      return new Promise((resolve) => {
        execFile(bin, argv.slice(1), { timeout: timeout * 1000 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === "number" ? err.code : 127) : 0, stdout, stderr });
        });
      });
    },
    every: () => () => {},
    visible: () => true,
    onVisible: () => {},
    draw: (view) => drawn.push(view),
  };
}

const settled = async (drawn) => {
  for (let i = 0; i < 200 && drawn.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(drawn.length > 0, "the panel drew nothing");
  return drawn[drawn.length - 1];
};

test("Work mod: the real jig's session in t7, drawn as jig panel draws it", async () => {
  const drawn = [];
  const host = realHost("t7", drawn);
  mountWork(null, { host, now });
  const view = await settled(drawn);
  assert.deepEqual(host.calls, [["jig", "session", "for-terminal", "t7", "--json"]]);
  assert.equal(view.lines.join("\n") + "\n", want("WORK"));
});

test("Context mod: the real jig's contextDetail, drawn as jig session context draws it", async () => {
  const drawn = [];
  mountContext(null, { host: realHost("t7", drawn) });
  const view = await settled(drawn);
  assert.equal(view.lines.join("\n") + "\n", want("CONTEXT"));
});

test("Work mod: a terminal the real jig knows no session in", async () => {
  const drawn = [];
  mountWork(null, { host: realHost("t8", drawn), now });
  const view = await settled(drawn);
  assert.deepEqual(view.lines, ["no jig session in terminal t8", "waiting for one…"]);
});

test("Work mod: a request through the real jig, answered by the session, shown", async () => {
  const drawn = [];
  const host = realHost("t7", drawn);
  const panel = mountWork(null, { host, now });
  await settled(drawn);
  // go test plays the session: it answers the request file once it appears.
  await panel.view().actions.find((a) => a.label === "turn tool bash on").run();
  const req = host.calls.find((argv) => argv[1] === "request");
  assert.deepEqual(req, ["jig", "request", "tool", "bash", "on", "--session", process.env.JIG_E2E_SESSION, "--wait"]);
  const view = drawn[drawn.length - 1];
  assert.equal(view.note, "turn tool bash on: tool bash on");
  assert.match(view.lines[view.lines.length - 2], /^last request ok · \d+s ago$/);
  assert.equal(view.lines[view.lines.length - 1], "  tool bash on");
  assert.ok(view.actions.some((a) => a.label === "turn tool bash off"));
});
