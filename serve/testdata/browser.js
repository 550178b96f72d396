// Drives jig serve in the real Chromium (playwright-core), one browser for
// every check, and prints what it saw as one JSON document: the Go test
// (browser_e2e_test.go) judges it. Acting as the sessions it runs jig
// itself: `jig session write` for a change, `jig request handle` to answer.
"use strict";
const { chromium } = require("playwright-core");
const { execFileSync } = require("child_process");
const fs = require("fs");
const http = require("http");
const path = require("path");

const cfg = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = {};
const jig = (args, input) => execFileSync(cfg.jig, args, { input: input || "", env: { ...process.env, ...cfg.env } }).toString();
const sessionURL = (base, id) => base + "/s/" + encodeURIComponent(cfg.host) + "/" + encodeURIComponent(id);

async function shot(page, name) {
  const file = path.join(cfg.shots, name + ".png");
  await page.screenshot({ path: file, fullPage: true });
  out.shots = out.shots || {};
  out.shots[name] = { file, bytes: fs.statSync(file).size, text: await page.evaluate(() => document.body.innerText) };
}

async function messages(page) {
  return page.$$eval(".msg", (ms) => ms.map((m) => ({
    role: m.classList.contains("user") ? "user" : "assistant",
    text: (m.querySelector(".text") || { textContent: "" }).textContent,
    calls: [...m.querySelectorAll("details.call summary")].map((s) => s.textContent),
  })));
}

(async () => {
  const browser = await chromium.launch({ executablePath: cfg.chromium, args: ["--headless", "--no-sandbox", "--disable-gpu",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  // (launch gives the browser a fresh profile folder of its own, removed at close)
  try {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    // the whole suite runs beside this page on 2 cores: wait long, never on a clock that passes
    ctx.setDefaultTimeout(90000);
    await ctx.grantPermissions(["notifications"], { origin: cfg.base });
    // the browser's own Notification, each one it is asked for recorded (headless shows none)
    await ctx.addInitScript(() => {
      const Real = window.Notification;
      if (!Real) return;
      window.__notes = [];
      window.Notification = class extends Real { constructor(title, opts) { super(title, opts); window.__notes.push(title); } };
    });
    const page = await ctx.newPage();
    out.errors = [];
    page.on("pageerror", (e) => out.errors.push(e.message));
    page.on("dialog", (d) => { out.dialog = d.message(); d.dismiss(); });

    // the board, attention first
    await page.goto(cfg.url);
    out.boardURL = page.url();
    await page.waitForFunction((n) => document.querySelectorAll("#rows tr").length >= n, cfg.sessions);
    out.rows = await page.$$eval("#rows tr", (trs) => trs.map((tr) => ({ key: tr.dataset.key,
      attention: tr.querySelector(".attention") !== null, project: (tr.querySelector(".project") || {}).textContent,
      model: (tr.querySelector(".model") || {}).textContent })));
    await shot(page, "board");

    // a write changes a row, with no reload
    await page.evaluate(() => { window.__mark = "kept"; });
    const t0 = Date.now();
    jig(["session", "write", "--session", cfg.claude, "--pid", String(cfg.pid)], JSON.stringify({ model: { provider: "p", id: "m", name: "Changed Model" } }));
    await page.waitForFunction(() => [...document.querySelectorAll("#rows .model")].some((td) => td.textContent === "Changed Model"));
    out.changeMs = Date.now() - t0;
    out.markAfterChange = await page.evaluate(() => window.__mark);
    out.navigations = await page.evaluate(() => performance.getEntriesByType("navigation").length);

    // opt-in notifications: one when a session starts to wait
    await page.click("#notify");
    await page.waitForFunction(() => document.querySelector("#notify").textContent === "notifications on");
    jig(["session", "write", "--session", cfg.claude, "--pid", String(cfg.pid)], JSON.stringify({ attention: { kind: "question" } }));
    await page.waitForFunction(() => window.__notes.length > 0);
    out.notes = await page.evaluate(() => window.__notes);
    jig(["session", "write", "--session", cfg.claude, "--pid", String(cfg.pid)], JSON.stringify({ attention: null }));

    // the Pi session: hostile text as text, messages, branches
    await page.goto(sessionURL(cfg.base, cfg.pi));
    await page.waitForSelector(".msg");
    await page.waitForSelector("#branches .leaf");
    out.pi = { messages: await messages(page), leaves: await page.$$eval("#branches .leaf", (ls) => ls.length),
      model: await page.textContent("#model"), imgs: await page.$$eval("img", (i) => i.length),
      scripts: await page.$$eval("script", (s) => s.map((x) => x.getAttribute("src"))),
      pwned: await page.evaluate(() => window.__pwned === undefined ? null : String(window.__pwned)) };
    await shot(page, "session-pi");

    // a switch: the request is written, the session (jig request handle) answers, the page shows it
    const reqFile = path.join(cfg.env.JIG_STATE_DIR, "requests", cfg.pi + ".json");
    await page.click('button[data-switch="tool:bash"]');
    for (let i = 0; i < 200 && !fs.existsSync(reqFile); i++) await new Promise((r) => setTimeout(r, 25));
    out.requestWritten = JSON.parse(fs.readFileSync(reqFile, "utf8"));
    jig(["request", "handle", "--session", cfg.pi], JSON.stringify({ tools: ["bash", "read"], active: ["bash", "read"], hidden: [], skills: [] }));
    await page.waitForFunction(() => /tool bash off: /.test(document.querySelector("#answer").textContent) && !/…$/.test(document.querySelector("#answer").textContent));
    out.answer = await page.textContent("#answer");

    // the agent writes on: a new entry appears once the status says so
    fs.appendFileSync(cfg.piFile, JSON.stringify({ type: "message", id: "b0000004", parentId: "b0000003", timestamp: new Date().toISOString(),
      message: { role: "assistant", content: [{ type: "text", text: "A later entry" }] } }) + "\n");
    jig(["session", "write", "--session", cfg.pi, "--pid", String(cfg.pid)], JSON.stringify({ state: "busy" }));
    await page.waitForFunction(() => [...document.querySelectorAll(".msg .text")].some((t) => t.textContent === "A later entry"));
    out.liveEntry = true;

    // another leaf, then a fork at the first user message
    await page.click("#branches .leaf:not(.active) button");
    await page.waitForFunction(() => /branch /.test(document.querySelector("#conversation h2").textContent));
    out.otherLeaf = await messages(page);
    await page.click(".msg.user button.fork");
    await page.waitForFunction(() => /^fork: new session /.test(document.querySelector("#answer").textContent));
    out.forked = (await page.textContent("#answer")).replace(/^fork: new session /, "");

    // Claude's and Codex's recorded transcripts
    for (const [name, id] of [["claude", cfg.claude], ["codex", cfg.codex]]) {
      await page.goto(sessionURL(cfg.base, id));
      await page.waitForSelector(".msg");
      out[name] = await messages(page);
      await shot(page, "session-" + name);
    }

    // another machine's session, through its own jig over ssh
    await page.goto(sessionURL(cfg.base, cfg.remote).replace("/s/" + encodeURIComponent(cfg.host) + "/", "/s/" + cfg.remoteHost + "/"));
    await page.waitForSelector('button[data-switch="tool:grep"]');
    const remoteReq = path.join(cfg.remoteState, "requests", cfg.remote + ".json");
    await page.click('button[data-switch="tool:grep"]');
    for (let i = 0; i < 400 && !fs.existsSync(remoteReq); i++) await new Promise((r) => setTimeout(r, 25));
    execFileSync(cfg.jig, ["request", "handle", "--session", cfg.remote], { input: JSON.stringify({ tools: ["grep"], active: ["grep"], hidden: [], skills: [] }),
      env: { ...process.env, ...cfg.env, JIG_STATE_DIR: cfg.remoteState } });
    await page.waitForFunction(() => /^tool grep off: /.test(document.querySelector("#answer").textContent));
    out.remote = { model: await page.textContent("#model"), conversation: await page.textContent("#conversation"), answer: await page.textContent("#answer") };

    // a phone's width: nothing wider than the screen
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(cfg.base + "/");
    await page.waitForSelector("#rows tr");
    out.phone = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    await shot(page, "board-phone");
    await page.setViewportSize({ width: 1100, height: 700 });

    // a page on another origin (same site: SameSite does not stop it) posts
    const evil = http.createServer((req, res) => {
      res.setHeader("Content-Type", "text/html");
      res.end(`<form id=f method=POST action="${cfg.base}/api/s/${encodeURIComponent(cfg.host)}/${encodeURIComponent(cfg.pi)}/switch" enctype="text/plain">` +
        `<input name='{"kind":"tool","name":"read","on":false,"x":"' value='"}'></form>` +
        `<script>fetch(${JSON.stringify(cfg.base + "/api/s/" + encodeURIComponent(cfg.host) + "/" + encodeURIComponent(cfg.pi) + "/switch")},` +
        `{method:"POST",mode:"no-cors",credentials:"include",headers:{"Content-Type":"text/plain"},body:'{"kind":"tool","name":"read","on":false}'})` +
        `.finally(()=>{document.title="sent";document.getElementById("f").submit()})</script>`);
    });
    await new Promise((r) => evil.listen(0, "127.0.0.1", r));
    const evilPage = await ctx.newPage();
    const posts = [];
    evilPage.on("response", (r) => { if (r.request().method() === "POST") posts.push(r.status()); });
    // the form's POST is the last thing the page does: its answer is a document
    const formAnswer = evilPage.waitForResponse((r) => r.request().method() === "POST" && r.request().resourceType() === "document");
    await evilPage.goto("http://127.0.0.1:" + evil.address().port + "/");
    await formAnswer;
    out.crossOriginStatuses = posts;
    evil.close();

    // without the token: every route 401, the event stream too
    const anon = await browser.newContext();
    out.anonymous = {};
    for (const p of ["/", "/s/" + encodeURIComponent(cfg.host) + "/" + encodeURIComponent(cfg.pi), "/static/app.js", "/api/board", "/api/events", "/api/s/" + encodeURIComponent(cfg.host) + "/" + encodeURIComponent(cfg.pi) + "/messages"]) {
      const r = await anon.request.get(cfg.base + p);
      out.anonymous[p] = r.status();
    }
    const anonPage = await anon.newPage();
    await anonPage.goto(cfg.base + "/");
    out.anonymous.eventSource = await anonPage.evaluate((u) => new Promise((res) => {
      const es = new EventSource(u + "/api/events");
      es.onopen = () => { es.close(); res("open"); };
      es.onerror = () => { es.close(); res("error"); };
    }), cfg.base);
    // a forged Host (what a rebinding DNS name sends)
    out.wrongHost = await new Promise((res) => {
      const u = new URL(cfg.base);
      http.get({ host: u.hostname, port: u.port, path: "/api/board", headers: { Host: "rebind.example:" + u.port, Cookie: "jig_serve_" + u.port + "=" + cfg.token } },
        (r) => { r.resume(); res(r.statusCode); }).on("error", (e) => res(e.message));
    });

    // the read-only server refuses the same call
    const ro = await ctx.newPage();
    await ro.goto(cfg.readOnlyURL);
    await ro.goto(sessionURL(cfg.readOnlyBase, cfg.pi));
    await ro.waitForSelector('button[data-switch="tool:bash"]');
    out.readOnly = {
      disabled: await ro.$eval('button[data-switch="tool:bash"]', (b) => b.disabled),
      status: await ro.evaluate(async (u) => (await fetch(u, { method: "POST", headers: { "Content-Type": "application/json",
        "X-Jig-Csrf": document.querySelector('meta[name="jig-csrf"]').content }, body: '{"kind":"tool","name":"bash","on":true}' })).status,
      sessionURL(cfg.readOnlyBase, cfg.pi).replace("/s/", "/api/s/") + "/switch"),
    };
    out.pwnedAnywhere = await page.evaluate(() => window.__pwned === undefined ? null : String(window.__pwned));
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.log(JSON.stringify({ fatal: String(e && e.stack || e) })); process.exit(1); });
