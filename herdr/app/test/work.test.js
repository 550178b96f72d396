"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { standIn, oneTab, answers, fixture, settle } = require("./standin.js");
const { mountWork } = require("../work/main.js");

const now = () => Date.parse("2026-11-29T19:02:00Z");
const readArgv = (t) => ["jig", "session", "for-terminal", t, "--json"];

function mount(layout, answer) {
  const host = standIn({ ...layout, answer });
  const panel = mountWork(host.api, { now });
  return { host, panel };
}

test("a terminal with a session: read through exec, drawn as jig panel draws it", async () => {
  const { host } = mount(oneTab("t7"), answers.session);
  await settle();
  assert.deepEqual(host.calls, [{ argv: readArgv("t7"), timeout: 10 }]);
  assert.equal(host.last().lines.join("\n") + "\n", fixture("work_full.txt"));
  assert.equal(host.liveTimers().length, 1);
  assert.equal(host.liveTimers()[0].ms, 2000);
  const labels = host.last().actions.map((a) => a.label);
  assert.ok(labels.includes("turn tool bash on"), labels.join(", "));
  assert.ok(labels.includes("turn tool read off"));
  assert.ok(labels.includes("turn skill pdf-tools on"));
  assert.ok(labels.includes("turn skill release-notes off"));
  assert.ok(labels.includes("reload"));
});

test("follows the active tab's terminal, not focused() in another tab", async () => {
  const layout = oneTab("t7");
  layout.focused = { space: "s1", tab: "tab1", pane: "p1", terminal: "t3" };
  const { host } = mount(layout, answers.session);
  await settle();
  assert.deepEqual(host.calls[0].argv, readArgv("t7"));
});

test("focused() picks among the active tab's terminals", async () => {
  const layout = oneTab("t7");
  layout.panes.push({ id: "p4", tab: "tab2", terminal: "t9" });
  layout.focused = { space: "s1", tab: "tab2", pane: "p4", terminal: "t9" };
  const { host } = mount(layout, answers.session);
  await settle();
  assert.deepEqual(host.calls[0].argv, readArgv("t9"));
});

test("a terminal without a session: a quiet line, and the panel keeps polling", async () => {
  const { host } = mount(oneTab("t7"), answers.none);
  await settle();
  assert.deepEqual(host.last().lines, ["no jig session in terminal t7", "waiting for one…"]);
  assert.deepEqual(host.last().actions, []);
  host.answer = answers.session;
  await host.fire();
  assert.equal(host.calls.length, 2);
  assert.match(host.last().lines[0], /^t7 · 0190a7c2/);
});

test("a remote terminal: exec runs jig on that machine", async () => {
  const { host } = mount(oneTab("devbox/t7"), answers.session);
  await settle();
  assert.deepEqual(host.calls, [{ argv: readArgv("t7"), on: "devbox", timeout: 10 }]);
  // A space on another machine names its terminals without the machine.
  const second = mount(oneTab("t4", "gpu-1"), answers.session);
  await settle();
  assert.deepEqual(second.host.calls[0], { argv: readArgv("t4"), on: "gpu-1", timeout: 10 });
});

for (const [name, answer, want] of [
  ["jig missing (exit 127)", answers.missing, "jig is not installed on devbox"],
  ["jig missing (spawn fails)", answers.spawnMissing, "jig is not installed on devbox"],
  ["jig failing", answers.failing, "jig failed (exit 3): jig: session for-terminal: unsafe state dir: /home/ana/.local/state/jig is writable by others (mode 777)"],
  ["the machine down", answers.machineDown, "machine devbox is not reachable: machine devbox is not connected"],
  ["a newer schema", () => answers.session("status_schema2.json"), "the session writes status schema 2; this panel reads 1: update jig's Herdr mods"],
  ["not JSON", () => ({ code: 0, stdout: "Usage: jig …\n", stderr: "" }), "jig answered something that is not a status: Usage: jig …"],
]) {
  test(name + ": one quiet line, no trace, still polling", async () => {
    const { host } = mount(oneTab("devbox/t7"), answer);
    await settle();
    assert.deepEqual(host.last().lines, [want]);
    assert.doesNotMatch(JSON.stringify(host.drawn), /\bat \w|Error:/);
    await host.fire();
    assert.equal(host.calls.length, 2);
    assert.equal(host.liveTimers().length, 1);
  });
}

test("polls only while visible", async () => {
  const layout = oneTab("t7");
  const host = standIn({ ...layout, answer: answers.session });
  host.api.window.visible = false;
  mountWork(host.api, { now });
  await settle();
  assert.equal(host.calls.length, 0);
  assert.equal(host.liveTimers().length, 0);
  host.setVisible(true);
  await settle();
  assert.equal(host.calls.length, 1);
  assert.equal(host.liveTimers().length, 1);
  host.setVisible(false);
  assert.equal(host.liveTimers().length, 0);
  host.setVisible(true);
  await settle();
  assert.equal(host.liveTimers().length, 1, "one timer, not two");
});

test("never two reads at once", async () => {
  let release;
  const host = standIn({ ...oneTab("t7"), answer: () => new Promise((r) => (release = r)) });
  mountWork(host.api, { now });
  await host.fire(); // the first read still runs
  await host.fire();
  assert.equal(host.calls.length, 1);
  release(answers.session());
  await settle();
  await host.fire();
  assert.equal(host.calls.length, 2);
});

test("a request from the panel: sent through exec where the session runs, its answer shown", async () => {
  let answered = false;
  const { host } = mount(oneTab("devbox/t7"), (opts) => {
    if (opts.argv[1] === "request") {
      answered = true;
      return { code: 0, stdout: "bash on\n", stderr: "" };
    }
    return answers.session(answered ? "status_answered.json" : "status_full.json");
  });
  await settle();
  const action = host.last().actions.find((a) => a.label === "turn tool bash on");
  await action.run();
  const req = host.calls.find((c) => c.argv[1] === "request");
  assert.deepEqual(req, {
    argv: ["jig", "request", "tool", "bash", "on", "--session", "0190a7c2-5b1e-7c3d-9f00-4a1b2c3d4e5f", "--wait"],
    on: "devbox",
    timeout: 20,
  });
  const view = host.last();
  assert.equal(view.note, "turn tool bash on: bash on");
  assert.deepEqual(view.lines.slice(-2), ["last request ok · 1s ago", "  bash on"]);
  assert.ok(view.actions.some((a) => a.label === "turn tool bash off"));
});

test("a request that fails says so in one line", async () => {
  const { host } = mount(oneTab("t7"), (opts) =>
    opts.argv[1] === "request" ? { code: 6, stdout: "", stderr: "jig: request: no answer within 10s\n" } : answers.session());
  await settle();
  await host.last().actions.find((a) => a.id === "reload").run();
  assert.deepEqual(host.calls.find((c) => c.argv[1] === "request").argv,
    ["jig", "request", "reload", "--session", "0190a7c2-5b1e-7c3d-9f00-4a1b2c3d4e5f", "--wait"]);
  assert.equal(host.last().note, "reload failed (exit 6): jig: request: no answer within 10s");
});

test("no terminal in the active tab", async () => {
  const layout = oneTab("t7");
  layout.panes = layout.panes.filter((p) => p.terminal === null);
  const { host } = mount(layout, answers.session);
  await settle();
  assert.equal(host.calls.length, 0);
  assert.deepEqual(host.last().lines, ["no terminal in this tab"]);
});

test("an API without spaces(), window or timers: the focused tab, always visible, the global timers", async () => {
  const layout = oneTab("t7");
  const host = standIn({ ...layout, answer: answers.session });
  delete host.api.spaces;
  delete host.api.window;
  delete host.api.setInterval;
  delete host.api.clearInterval;
  const panel = mountWork(host.api, { now });
  await settle();
  assert.deepEqual(host.calls[0].argv, readArgv("t7"));
  assert.ok(panel.polling.running());
  panel.polling.stop();
});

test("a request's note goes when the panel follows another terminal", async () => {
  const layout = oneTab("t7");
  const { host } = mount(layout, (opts) =>
    opts.argv[1] === "request" ? { code: 0, stdout: "reload\n", stderr: "" } : answers.session());
  await settle();
  await host.last().actions.find((a) => a.id === "reload").run();
  assert.equal(host.last().note, "reload: reload");
  await host.fire();
  assert.equal(host.last().note, "reload: reload", "same terminal: the note stays");
  layout.panes[1].terminal = "t8";
  await host.fire();
  assert.equal(host.last().note, null);
  assert.deepEqual(host.calls[host.calls.length - 1].argv, readArgv("t8"));
});

test("a status with fields of unexpected shapes: one quiet line, no exception, still polling", async () => {
  const odd = JSON.parse(fixture("status_full.json"));
  odd.outputs = [{ at: "2026-11-29T19:01:00Z" }]; // no path, no action
  odd.recent = [null];
  odd.contextDetail = { tools: 7 };
  const { host } = mount(oneTab("t7"), () => ({ code: 0, stdout: JSON.stringify(odd), stderr: "" }));
  const rejections = [];
  const onRejection = (err) => rejections.push(err);
  process.on("unhandledRejection", onRejection);
  try {
    await settle();
    assert.equal(host.last().lines.length, 1);
    assert.match(host.last().lines[0], /^the Work panel cannot draw this session: /);
    assert.deepEqual(host.last().actions, []);
    host.answer = answers.session;
    await host.fire();
    assert.match(host.last().lines[0], /^t7 · 0190a7c2/);
    assert.deepEqual(rejections, []);
  } finally {
    process.off("unhandledRejection", onRejection);
  }
});

test("an exec result without code or output, for a request: a quiet note", async () => {
  const { host } = mount(oneTab("t7"), (opts) => (opts.argv[1] === "request" ? undefined : answers.session()));
  await settle();
  await host.last().actions.find((a) => a.id === "reload").run();
  assert.equal(host.last().note, "reload failed (exit -1): no message");
});

test("a host whose draw throws: no unhandled rejection, the timer keeps running", async () => {
  const { host } = mount(oneTab("t7"), answers.session);
  host.api.render = () => {
    throw new Error("render gone");
  };
  const rejections = [];
  const onRejection = (err) => rejections.push(err);
  process.on("unhandledRejection", onRejection);
  try {
    await settle();
    await host.fire();
    await host.fire();
    assert.deepEqual(rejections, []);
    assert.equal(host.calls.length, 3);
    assert.equal(host.liveTimers().length, 1);
  } finally {
    process.off("unhandledRejection", onRejection);
  }
});
