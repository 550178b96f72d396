"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const { assemble, mods } = require("../build.js");

for (const name of Object.keys(mods)) {
  test(name + "/main.js is built from src/ (run node herdr/app/build.js)", () => {
    const have = fs.readFileSync(path.join(__dirname, "..", name, "main.js"), "utf8");
    assert.equal(have, assemble(name));
  });
  test(name + "/mod.json is JSON with a title", () => {
    const m = JSON.parse(fs.readFileSync(path.join(__dirname, "..", name, "mod.json"), "utf8"));
    assert.equal(typeof m.title, "string");
  });
}
