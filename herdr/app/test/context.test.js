"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { standIn, oneTab, answers, fixture, settle } = require("./standin.js");
const { mountContext, contextLines } = require("../context/main.js");

test("draws the session's contextDetail as jig session context does", async () => {
  const host = standIn({ ...oneTab("t7"), answer: answers.session });
  mountContext(host.api);
  await settle();
  assert.deepEqual(host.calls, [{ argv: ["jig", "session", "for-terminal", "t7", "--json"], timeout: 10 }]);
  assert.equal(host.last().lines.join("\n") + "\n", fixture("context_full.txt"));
});

test("a remote terminal, then no session, then the machine down", async () => {
  const host = standIn({ ...oneTab("devbox/t7"), answer: answers.session });
  mountContext(host.api);
  await settle();
  assert.equal(host.calls[0].on, "devbox");
  host.answer = answers.none;
  await host.fire();
  assert.deepEqual(host.last().lines, ["no jig session in terminal t7", "waiting for one…"]);
  host.answer = answers.machineDown;
  await host.fire();
  assert.deepEqual(host.last().lines, ["machine devbox is not reachable: machine devbox is not connected"]);
  assert.equal(host.liveTimers().length, 1);
});

test("a session without context detail yet", () => {
  assert.deepEqual(contextLines(null), ["no context detail yet: the session reports it after its first turn"]);
});

test("jig failing or missing: one quiet line, no trace, still polling", async () => {
  const host = standIn({ ...oneTab("t7"), answer: answers.failing });
  mountContext(host.api);
  await settle();
  assert.deepEqual(host.last().lines, [
    "jig failed (exit 3): jig: session for-terminal: unsafe state dir: /home/ana/.local/state/jig is writable by others (mode 777)",
  ]);
  host.answer = answers.missing;
  await host.fire();
  assert.deepEqual(host.last().lines, ["jig is not installed on this machine"]);
  assert.doesNotMatch(JSON.stringify(host.drawn), /\bat \w|Error:/);
  host.answer = answers.session;
  await host.fire();
  assert.equal(host.last().lines.join("\n") + "\n", fixture("context_full.txt"));
  assert.equal(host.calls.length, 3);
});
