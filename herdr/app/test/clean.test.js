// The mods draw what jig's Go code draws, cleaned by the same rule: their
// clean is held to render.Clean's cases and to its code point table
// (render/testdata), and a hostile status is drawn as the Go golden files say.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { standIn, oneTab, answers, fixture, settle } = require("./standin.js");
const work = require("../work/main.js");
const context = require("../context/main.js");

const renderTestdata = path.join(__dirname, "..", "..", "..", "render", "testdata");
const cases = JSON.parse(fs.readFileSync(path.join(renderTestdata, "clean_cases.json"), "utf8"));
const now = () => Date.parse("2026-11-29T19:02:00Z");
// What no drawn text may hold: C0 but none (a line has no newline), DEL, C1,
// U+2028/9, bidi controls and the other format characters Clean drops.
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;

// ruleText lists every code point clean changes, as ranges, in the format of
// render/testdata/clean_rule.txt (which Go's TestCleanRule writes).
function ruleText(clean) {
  const ranges = [];
  let start = 0, prev = 0, cur = classOf(clean, 0);
  for (let r = 1; r <= 0x110000; r++) {
    if (r >= 0xd800 && r <= 0xdfff) continue;
    const c = r <= 0x10ffff ? classOf(clean, r) : "";
    if (c !== cur || r !== prev + 1 || r > 0x10ffff) {
      if (cur !== "") ranges.push(hex(start) + "-" + hex(prev) + " " + cur);
      start = r;
      cur = c;
    }
    prev = r;
  }
  return ranges.join("\n") + "\n";
}

function classOf(clean, r) {
  const ch = String.fromCodePoint(r);
  const out = clean(ch);
  if (out === ch) return "";
  return out === "" ? "drop" : out;
}

function hex(r) {
  return r.toString(16).padStart(4, "0");
}

for (const [name, mod] of [["work", work], ["context", context]]) {
  test(name + ": clean agrees with render.Clean on every case of clean_cases.json", () => {
    assert.ok(cases.length >= 20);
    for (const c of cases) assert.equal(mod.clean(c.in), c.want, c.name);
  });

  test(name + ": clean changes exactly the code points of clean_rule.txt", () => {
    const want = fs.readFileSync(path.join(renderTestdata, "clean_rule.txt"), "utf8")
      .split("\n").filter((l) => !l.startsWith("#")).join("\n");
    assert.equal(ruleText(mod.clean), want);
  });
}

test("Work: a hostile status is drawn as jig panel draws it, cleaned", async () => {
  let answered = false;
  const host = standIn({
    ...oneTab("t7"),
    answer: (opts) => {
      if (opts.argv[1] === "request") {
        answered = true;
        return { code: 0, stdout: "ba\u001b[31msh on \u001b]52;c;eA==\u0007\u202e<script>alert(1)</script>\n", stderr: "" };
      }
      return answers.session("status_hostile.json");
    },
  });
  work.mountWork(host.api, { now });
  await settle();
  let view = host.last();
  assert.equal(view.lines.join("\n") + "\n", fixture("work_hostile.txt"));
  const labels = view.actions.map((a) => a.label);
  for (const want of ["turn tool re\u202ead off", "turn tool ba\u001b[31msh on", "turn skill pdf\u202e-tools on"]) {
    assert.ok(!labels.includes(want), want + " drawn raw");
  }
  assert.ok(labels.includes("turn tool read off"), labels.join(", "));
  assert.ok(labels.includes("turn tool ba?[31msh on"), labels.join(", "));
  assert.ok(labels.includes("turn skill pdf-tools on"), labels.join(", "));

  // The request goes out with the name as the session knows it; its answer
  // is drawn cleaned.
  await view.actions.find((a) => a.label === "turn tool ba?[31msh on").run();
  assert.ok(answered);
  assert.deepEqual(host.calls.find((c) => c.argv[1] === "request").argv.slice(0, 5),
    ["jig", "request", "tool", "ba\u001b[31msh", "on"]);
  view = host.last();
  assert.equal(view.note, "turn tool ba?[31msh on: ba?[31msh on ?]52;c;eA==?<script>alert(1)</script>");
  for (const v of host.drawn) {
    for (const text of [v.title, v.note || "", ...v.lines, ...v.actions.map((a) => a.label)]) {
      assert.doesNotMatch(text, unsafe);
    }
  }
});

test("Work: jig's error words are drawn cleaned", async () => {
  const host = standIn({
    ...oneTab("t7"),
    answer: () => ({ code: 3, stdout: "", stderr: "jig: session for-terminal: \u001b]0;x\u0007\u202eunsafe\n" }),
  });
  work.mountWork(host.api, { now });
  await settle();
  assert.deepEqual(host.last().lines, ["jig failed (exit 3): jig: session for-terminal: ?]0;x?unsafe"]);
});

test("Context: a hostile contextDetail is drawn as jig session context draws it, cleaned", async () => {
  const host = standIn({ ...oneTab("t7"), answer: () => answers.session("status_hostile.json") });
  context.mountContext(host.api);
  await settle();
  assert.equal(host.last().lines.join("\n") + "\n", fixture("context_hostile.txt"));
  for (const l of host.last().lines) assert.doesNotMatch(l, unsafe);
});
