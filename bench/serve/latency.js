// bench/serve: in the real Chromium, the time from a `jig session write`
// to the row changing on an open board page, RUNS times; and the time from
// opening a session page to its first message shown. Prints JSON.
"use strict";
const { chromium } = require("playwright-core");
const { execFileSync } = require("child_process");
const [url, jig, session, bigSession, runs, pid] = process.argv.slice(2);
(async () => {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox",
    "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  const page = await browser.newPage();
  let t = Date.now();
  await page.goto(url);
  await page.waitForSelector("#rows tr");
  const firstBoard = Date.now() - t;
  const base = url.slice(0, url.indexOf("/?token="));
  const write = [], spawn = [];
  for (let i = 0; i < Number(runs); i++) {
    const name = "Bench Model " + i;
    t = Date.now();
    execFileSync(jig, ["session", "write", "--session", session, "--pid", pid], { input: JSON.stringify({ model: { provider: "p", id: "m", name } }) });
    spawn.push(Date.now() - t);
    await page.waitForFunction((n) => [...document.querySelectorAll("#rows .model")].some((td) => td.textContent === n), name, { polling: "raf" });
    write.push(Date.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  const big = [];
  for (let i = 0; i < 5; i++) {
    t = Date.now();
    await page.goto(base + "/s/" + encodeURIComponent(require("os").hostname()) + "/" + encodeURIComponent(bigSession));
    await page.waitForSelector(".msg");
    big.push(Date.now() - t);
  }
  await browser.close();
  console.log(JSON.stringify({ firstBoard, write, spawn, big }));
})().catch((e) => { console.error(e); process.exit(1); });
