// mountWork is the Work panel: it follows the terminal shown in the active
// tab, reads its session every 2 s while visible, and sends requests (a
// tool or skill on or off, a reload) through the same exec.
function mountWork(api, opts = {}) {
  const host = opts.host || hostFrom(api);
  const now = opts.now || (() => Date.now());
  const st = { target: null, status: null, quiet: [], note: null };

  async function tick() {
    try {
      const t = host.shownTerminal();
      if (!t) {
        st.status = null;
        st.quiet = ["no terminal in this tab"];
      } else {
        if (!st.target || st.target.terminal !== t.terminal || st.target.on !== t.on) st.note = null;
        st.target = t;
        const r = await readSession(host, t);
        st.status = r.status || null;
        st.quiet = r.status ? [] : r.waiting ? [r.quiet, "waiting for one…"] : [r.quiet];
      }
    } catch (err) {
      st.status = null;
      st.quiet = ["the Work panel could not read the session: " + firstLine(err && err.message)];
    }
    redraw();
  }

  // request runs `jig request … --session ID --wait` where the session runs,
  // shows jig's one-line answer, then reads the status again so the
  // session's own answer (lastRequest) shows at once.
  async function request(args, label) {
    const s = st.status;
    const t = st.target;
    if (!s || !t) return;
    st.note = label + " …";
    redraw();
    const argv = [jigOn(t.on), "request", ...args, "--session", s.session, "--wait"];
    try {
      const res = (await host.exec(argv, t.on, REQUEST_TIMEOUT_S)) || {};
      const code = typeof res.code === "number" ? res.code : -1;
      st.note = code === 0
        ? label + ": " + firstLine(res.stdout)
        : label + " failed (exit " + code + "): " + firstLine(res.stderr || res.stdout);
    } catch (err) {
      st.note = label + ": " + quietExecError(err, t.on);
    }
    await polling.tick();
  }

  function actions() {
    const s = st.status;
    if (!s) return [];
    const sw = s.switches || {};
    const cd = s.contextDetail || {};
    const list = [];
    const toggles = (kind, items, switches) => {
      const names = new Map();
      for (const it of items || []) names.set(it.name, !it.off);
      for (const [name, on] of Object.entries(switches || {})) names.set(name, on);
      for (const [name, on] of names) {
        const to = on ? "off" : "on";
        const label = "turn " + kind + " " + name + " " + to;
        list.push({ id: kind + ":" + name, label, run: () => request([kind, name, to], label) });
      }
    };
    toggles("tool", cd.tools, sw.tools);
    toggles("skill", cd.skills, sw.skills);
    list.push({ id: "reload", label: "reload", run: () => request(["reload"], "reload") });
    return list;
  }

  // view never throws: a status with a field of an unexpected shape gets
  // one quiet line instead of an exception in the panel.
  function view() {
    let lines = st.quiet;
    let acts = [];
    if (st.status) {
      try {
        lines = workLines(st.status, now());
        acts = actions();
      } catch (err) {
        lines = ["the Work panel cannot draw this session: " + firstLine(err && err.message)];
        acts = [];
      }
    }
    return cleanView({ title: "Work", lines, note: st.note, actions: acts });
  }

  function redraw() {
    host.draw(view());
  }

  const polling = poller(host, tick);
  return { tick: polling.tick, view, polling };
}
