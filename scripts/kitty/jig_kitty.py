# jig for kitty: a watcher kitty loads into its own process, so each kitty
# window that runs an agent gets the agent's project (its folder's name) and
# status line as its title (the tab bar shows the focused window's), so
# tabs of several agents stay apart: "jig ● claude-sonnet-4-5 42% $1.23".
# kitty.conf needs one line, and no remote control (`jig install kitty`
# prints it, --write adds it):
#
#   watcher /home/me/.config/kitty/jig_kitty.py
#
# Every 2 s (JIG_KITTY_INTERVAL seconds) it looks at jig's sessions folder;
# jig runs only while some session file is there: once to list the live
# sessions, then once for each kitty window that runs one. Nothing runs in
# the shells. kitty's thread never waits for jig: it starts jig and looks
# back every 50 ms until jig is done (a Python thread would not do: kitty
# holds Python's lock while it waits for events). A window whose agent ends
# gets its own title back; a title set by hand is left alone; a jig that
# fails or takes over 2 s changes nothing.
# Written against kitty 0.26's API (add_timer, the boss's window map).
import os
import subprocess
import tempfile
import time

from kitty.fast_data_types import add_timer, get_boss

JIG = 'jig'  # jig install kitty writes the absolute path of the jig it ran
WIDTH = '40'  # the title's cells at most
TIMEOUT = 2  # seconds a jig run may take before it is given up
POLL = 0.05  # seconds between looks at a running jig
# Each live session's kitty windows, one "window id<TAB>cwd" line each. A
# template reads strings jig has cleaned: a control character in a cwd is
# '?', so it cannot split a line or reach kitty's tab bar.
WINDOWS = ('{{range .}}{{$cwd := .cwd}}{{range .terminals}}{{if eq .from "KITTY_WINDOW_ID"}}'
           '{{.id}}\t{{with $cwd}}{{.}}{{end}}\n{{end}}{{end}}{{end}}')


def _state_dir():
    # The state dir as jig finds it, from kitty's own environment.
    d = os.environ.get('JIG_STATE_DIR')
    if d:
        return d
    x = os.environ.get('XDG_STATE_HOME')
    if not x or not os.path.isabs(x):
        x = os.path.join(os.path.expanduser('~'), '.local', 'state')
    return os.path.join(x, 'jig')


def _any_session():
    try:
        with os.scandir(os.path.join(_state_dir(), 'sessions')) as it:
            return any(e.name.endswith('.json') for e in it)
    except OSError:
        return False


class _Run:
    # One jig run, its output in a file (a pipe could fill and stall it).

    def __init__(self, *args):
        self.out = tempfile.TemporaryFile()
        self.started = time.monotonic()
        try:
            # KITTY_PID names this kitty, as it names it to its windows: jig
            # matches the window ids to this instance's sessions, whatever
            # KITTY_PID kitty itself inherited (started from another kitty).
            self.p = subprocess.Popen([JIG, *args], stdin=subprocess.DEVNULL, stdout=self.out,
                                      stderr=subprocess.DEVNULL, env=dict(os.environ, KITTY_PID=str(os.getpid())))
        except OSError:
            self.p = None

    def done(self):
        if self.p is None or self.p.poll() is not None:
            return True
        if time.monotonic() - self.started > TIMEOUT:
            self.p.kill()
            self.p.wait()
            return True
        return False

    def output(self):
        # What jig printed, or None when it failed or was given up.
        ok = self.p is not None and self.p.returncode == 0
        self.out.seek(0)
        text = self.out.read().decode('utf-8', 'replace')
        self.out.close()
        return text if ok else None


def _round(window_ids):
    # One look, as a generator that yields while jig runs. It returns the
    # windows that run a live session and the titles jig gave them, or
    # None when that is not known.
    if not _any_session():
        return set(), {}
    run = _Run('session', 'list', '--format', WINDOWS)
    while not run.done():
        yield
    out = run.output()
    if out is None:
        return None
    projects = {}
    for line in out.split('\n'):
        wid, _, cwd = line.partition('\t')
        if wid in window_ids:  # newest first: a window's newest session names it
            projects.setdefault(wid, os.path.basename(cwd.rstrip('/')))
    runs = {wid: _Run('session', 'for-terminal', wid, '--preset', 'plain', '--max-width', WIDTH) for wid in projects}
    while not all([r.done() for r in runs.values()]):
        yield
    titles = {}
    for wid, r in runs.items():
        line = (r.output() or '').strip()
        if line:
            titles[wid] = (projects[wid] + ' ' + line).strip()
    return set(projects), titles


class _Watcher:
    def __init__(self):
        self.titled = {}  # window id -> the title jig gave it
        self.round = None

    def tick(self, timer_id=None):
        delay = _interval()
        try:
            if self.round is None:
                self.round = _round({str(i) for i in get_boss().window_id_map})
            next(self.round)
            delay = POLL
        except StopIteration as done:
            self.round = None
            if done.value is not None:
                self.apply(*done.value)
        finally:
            add_timer(self.tick, delay, False)

    def apply(self, ids, titles):
        windows = get_boss().window_id_map
        for wid, title in titles.items():
            w = windows.get(int(wid))
            # A title someone else set (kitty @ set-window-title, the tab's
            # rename) wins over jig's.
            if w is not None and w.override_title in (None, self.titled.get(wid)) and w.override_title != title:
                w.set_title(title)
                self.titled[wid] = title
        for wid in [k for k in self.titled if k not in ids]:
            w = windows.get(int(wid))
            if w is not None and w.override_title == self.titled[wid]:
                w.set_title(None)  # the agent ended: the shell's title is back
            del self.titled[wid]


def _interval():
    try:
        return max(0.1, float(os.environ.get('JIG_KITTY_INTERVAL', '2')))
    except ValueError:
        return 2.0


_watcher = _Watcher()
add_timer(_watcher.tick, _interval(), False)
