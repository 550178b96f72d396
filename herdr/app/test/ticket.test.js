"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { standIn, oneTab, answers, fixture, settle } = require("./standin.js");
const { mountWork } = require("../work/main.js");

// status_ticket.json holds a ticket, a workflow and ticket-folder outputs read
// from real files by jig's reader (panel/ticket_test.go makes it): the Work mod
// draws them as jig panel does.
test("ticket and workflow read from a real ticket folder", async () => {
  const host = standIn({ ...oneTab("t7"), answer: () => answers.session("status_ticket.json") });
  mountWork(host.api, { now: () => Date.parse("2026-11-29T19:02:00Z") });
  await settle();
  assert.equal(host.last().lines.join("\n") + "\n", fixture("work_ticket.txt"));
});
