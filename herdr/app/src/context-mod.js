// mountContext is the Context panel: the contextDetail of the session in the
// terminal shown in the active tab, drawn as /context draws it, read every
// 2 s while visible.
function mountContext(api, opts = {}) {
  const host = opts.host || hostFrom(api);
  let lines = [];

  async function tick() {
    try {
      const t = host.shownTerminal();
      if (!t) {
        lines = ["no terminal in this tab"];
      } else {
        const r = await readSession(host, t);
        if (r.status) lines = contextLines(r.status.contextDetail);
        else lines = r.waiting ? [r.quiet, "waiting for one…"] : [r.quiet];
      }
    } catch (err) {
      lines = ["the Context panel could not read the session: " + firstLine(err && err.message)];
    }
    host.draw(view());
  }

  function view() {
    return cleanView({ title: "Context", lines, note: null, actions: [] });
  }

  const polling = poller(host, tick);
  return { tick: polling.tick, view, polling };
}
