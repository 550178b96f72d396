package board

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRowOfReadsWhatTheBoardShows(t *testing.T) {
	doc := `{"schema":1,"session":"s1","host":"devbox","cwd":"/work/shop/sub","agent":"claude-code",
	"terminal":"%3","terminalFrom":"TMUX_PANE","terminals":[{"from":"TMUX_PANE","id":"%3","instance":"/tmp/tmux-0/work"}],
	"model":{"provider":"anthropic","id":"claude-opus-4-5","name":"Opus 4.5"},"state":"busy",
	"context":{"tokens":1,"window":2,"percent":42.4},"usage":{"cost":1.25},
	"attention":{"kind":"permission","since":"2026-12-01T10:00:00Z","tool":"Bash"},
	"rateLimits":{"fiveHour":{"usedPercent":17,"resetsAt":"2026-12-01T12:00:00Z"}},
	"switches":{"tools":{"bash":false},"skills":{}},
	"contextDetail":{"tools":[{"name":"read","tokens":1},{"name":"bash","tokens":1}]},
	"updatedAt":"2026-12-01T10:00:05Z","future":{"x":1}}`
	r, err := rowOf([]byte(doc), func(string) string { return "/work/shop" })
	if err != nil {
		t.Fatal(err)
	}
	if r.Project != "shop" || r.Model != "Opus 4.5" || r.Attention != "permission" || r.Tool != "Bash" {
		t.Errorf("row %+v", r)
	}
	if !r.Since.Equal(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("since %v: want the attention's", r.Since)
	}
	if r.Terminal == nil || r.Terminal.Instance != "/tmp/tmux-0/work" || r.Terminal.ID != "%3" {
		t.Errorf("terminal %+v", r.Terminal)
	}
	if *r.RateLimit != 17 || *r.Context != 42.4 || *r.Cost != 1.25 {
		t.Errorf("numbers %v %v %v", *r.RateLimit, *r.Context, *r.Cost)
	}
	want := []ToolName{{Name: "bash", Off: true}, {Name: "read"}}
	if len(r.Tools) != 2 || r.Tools[0] != want[0] || r.Tools[1] != want[1] {
		t.Errorf("tools %+v, want %+v", r.Tools, want)
	}
}

func TestProjectIsTicketElseRepoElseFolder(t *testing.T) {
	repo := t.TempDir()
	os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	sub := filepath.Join(repo, "a", "b")
	os.MkdirAll(sub, 0o755)
	rows, finder := []string{
		`{"session":"1","cwd":"` + sub + `","ticket":{"key":"SHOP-7"}}`,
		`{"session":"2","cwd":"` + sub + `"}`,
		`{"session":"3","cwd":"/nowhere/else","outputs":[{"repo":"/srv/api"}]}`,
		`{"session":"4","cwd":"/nowhere/else"}`,
	}, func(d string) string {
		if strings.HasPrefix(d, repo) {
			return repo
		}
		return ""
	}
	want := []string{"SHOP-7", filepath.Base(repo), "api", "else"}
	for i, doc := range rows {
		r, err := rowOf([]byte(doc), finder)
		if err != nil {
			t.Fatal(err)
		}
		if r.Project != want[i] {
			t.Errorf("%s: project %q, want %q", doc, r.Project, want[i])
		}
	}
}

func TestSortPutsTheLongestWaitFirstAndKeepsItsOrder(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 1, 1, 0, m, 0, 0, time.UTC) }
	rows := []Row{
		{Session: "idle-new", State: "idle", Since: at(9), Updated: at(9)},
		{Session: "down", Host: "devbox", Err: "no answer"},
		{Session: "busy-old", State: "busy", Since: at(1), Updated: at(20)},
		{Session: "wait-new", State: "busy", Attention: "question", Since: at(8), Updated: at(8)},
		{Session: "wait-old", State: "busy", Attention: "permission", Since: at(3), Updated: at(30)},
		{Session: "busy-new", State: "busy", Since: at(5), Updated: at(5)},
		{Session: "idle-old", State: "idle", Since: at(2), Updated: at(2)},
	}
	order := func() string {
		var got []string
		for _, r := range rows {
			got = append(got, r.Session)
		}
		return strings.Join(got, " ")
	}
	Sort(rows)
	want := "wait-old wait-new busy-new busy-old idle-new idle-old down"
	if order() != want {
		t.Errorf("order %v, want %v", order(), want)
	}
	for i := range rows {
		rows[i].Updated = at(40 - i) // every session writes again: nobody moves
	}
	slices.Reverse(rows)
	Sort(rows)
	if order() != want {
		t.Errorf("a write that changes no state moved a row: %v", order())
	}
}

func TestLinesFitTheWidthAndCleanEveryString(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	pct, cost := 42.0, 1.5
	rows := []Row{
		{Host: "here", Local: true, Session: "a", Agent: "pi", Project: "shop\x1b]0;pwned\x07\u202e", Model: "Mock Model",
			State: "busy", Context: &pct, Cost: &cost, Since: now.Add(-3 * time.Minute)},
		{Host: "devbox", Err: "no answer within 2s"},
	}
	wide := Lines(rows, 0, now)
	if len(wide) != 3 || !strings.Contains(wide[0], "HOST") || !strings.Contains(wide[1], "42%") || !strings.Contains(wide[1], "3m") {
		t.Fatalf("lines %q", wide)
	}
	for _, l := range wide {
		if strings.ContainsAny(l, "\x1b\x07\u202e") {
			t.Errorf("uncleaned %q", l)
		}
	}
	for _, width := range []int{100, 60, 40, 30, 20} {
		for _, l := range Lines(rows, width, now) {
			if w := len([]rune(l)); w > width {
				t.Errorf("width %d: %q is %d wide", width, l, w)
			}
		}
	}
	narrow := Lines(rows[:1], 30, now)
	if strings.Contains(narrow[0], "AGENT") || !strings.Contains(narrow[1], "shop") || !strings.Contains(narrow[1], "busy") {
		t.Errorf("at 30 columns the least useful go first: %q", narrow)
	}
	if strings.Contains(Lines(rows[:1], 0, now)[0], "HOST") {
		t.Error("every row local: no host column")
	}
}

func TestJumpCommandPerHost(t *testing.T) {
	cases := []struct {
		t    Terminal
		want string
	}{
		{Terminal{From: "TMUX_PANE", ID: "%3", Instance: "/tmp/tmux-0/w"}, "tmux -S /tmp/tmux-0/w select-window -t %3 ; select-pane -t %3 ; switch-client -t %3"},
		{Terminal{From: "TMUX_PANE", ID: "%3"}, "tmux select-window -t %3 ; select-pane -t %3 ; switch-client -t %3"},
		{Terminal{From: "WEZTERM_PANE", ID: "7"}, "wezterm cli activate-pane --pane-id 7"},
		{Terminal{From: "KITTY_WINDOW_ID", ID: "2"}, "kitten @ focus-window --match id:2"},
		{Terminal{From: "HERDR_PANE_ID", ID: "w1:p2"}, "herdr pane focus w1:p2"},
	}
	for _, c := range cases {
		argv, err := JumpCommand(&c.t)
		if err != nil || strings.Join(argv, " ") != c.want {
			t.Errorf("%+v: %q %v, want %q", c.t, argv, err, c.want)
		}
	}
	if _, err := JumpCommand(&Terminal{From: "HC_TERMINAL_ID", ID: "t7"}); err == nil {
		t.Error("herdr-core has no focus command here")
	}
	if _, err := JumpCommand(nil); err == nil {
		t.Error("no terminal, no jump")
	}
}

func TestFind(t *testing.T) {
	rows := []Row{{Session: "abc1"}, {Session: "abd2"}, {Session: "x", Err: "down"}}
	if r, err := Find(rows, "abc"); err != nil || r.Session != "abc1" {
		t.Errorf("%v %v", r, err)
	}
	if _, err := Find(rows, "ab"); err == nil || !strings.Contains(err.Error(), "2 sessions") {
		t.Errorf("ambiguous: %v", err)
	}
	if _, err := Find(rows, "x"); err == nil {
		t.Error("a host's placeholder is no session")
	}
}

func TestSlimDropsHeavyFieldsAndKeepsTheRest(t *testing.T) {
	doc := "{\n  \"session\": \"s\",\n  \"outputs\": [\n    {\n      \"path\": \"/a,\\n  \\\"x\\\": 1\"\n    }\n  ],\n  \"state\": \"busy\",\n  \"recent\": []\n}\n"
	got := string(Slim([]byte(doc)))
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("%v: %q", err, got)
	}
	if len(v) != 3 || v["session"] != "s" || v["state"] != "busy" || v["recent"] == nil {
		t.Errorf("slim %q", got)
	}
	last := "{\n  \"session\": \"s\",\n  \"updatedAt\": \"x\"\n}\n"
	if err := json.Unmarshal(Slim([]byte(last)), &v); err != nil || v["updatedAt"] != "x" {
		t.Errorf("the last field kept: %v %q", err, Slim([]byte(last)))
	}
	other := `{"session":"s","outputs":[]}`
	if string(Slim([]byte(other))) != other {
		t.Error("a file in another layout is decoded whole")
	}
}

func TestADownHostKeepsItsNameAndAWideBoardShowsMore(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
	pct, cost := 42.0, 1.5
	rows := []Row{
		{Host: "here", Local: true, Session: "a", Agent: "claude-code", Project: "shop", Model: "Opus 4.5",
			State: "busy", Context: &pct, Cost: &cost, Since: now.Add(-3 * time.Minute), LastTool: "Bash", Branch: "feature/cart"},
		{Host: "gpu-box", Err: "ssh: connect to host gpu-box port 22: Connection timed out after a long while"},
	}
	narrow := Lines(rows, 80, now)
	if !strings.Contains(narrow[0], "HOST") || !strings.Contains(narrow[2], "gpu-box") || !strings.Contains(narrow[2], "down: ssh") {
		t.Errorf("at 80 columns a down host keeps its name, its reason is cut:\n%s", strings.Join(narrow, "\n"))
	}
	if strings.Contains(narrow[0], "BRANCH") {
		t.Errorf("no room for the branch at 80:\n%s", strings.Join(narrow, "\n"))
	}
	wide := strings.Join(Lines(rows, 200, now), "\n")
	if !strings.Contains(wide, "TOOL") || !strings.Contains(wide, "Bash") || !strings.Contains(wide, "feature/cart") ||
		!strings.Contains(wide, "Connection timed out after a long while") {
		t.Errorf("a wide board shows the last tool, the branch and the whole reason:\n%s", wide)
	}
}

func TestToolsAsTheFileNamesThem(t *testing.T) {
	claude := `{"session":"c","agent":"claude-code","tools":{"active":12,"total":25},
	"recent":[{"tool":"Bash","outcome":"ok"},{"tool":"Read","outcome":"ok"},{"tool":"Bash","outcome":"ok"}],
	"switches":{"tools":{"WebFetch":false},"skills":{}},"attention":{"kind":"permission","tool":"Edit"}}`
	r, err := rowOf([]byte(claude), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range r.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, " ") != "Bash Edit Read WebFetch" || !r.Tools[3].Off || r.Offered == nil || r.Offered.Total != 25 ||
		r.LastTool != "Bash" {
		t.Errorf("claude's tools %+v offered %+v last %q", r.Tools, r.Offered, r.LastTool)
	}
	pi := `{"session":"p","agent":"pi","contextDetail":{"tools":[{"name":"read","tokens":1},{"name":"grep","tokens":1,"inactive":true}]},
	"lastRequest":{"id":"r2","ok":false,"message":"no","at":"2026-01-01T00:00:00Z","covers":["r1"]}}`
	if r, err = rowOf([]byte(pi), nil); err != nil {
		t.Fatal(err)
	}
	if len(r.Tools) != 2 || r.Tools[0] != (ToolName{Name: "grep", Inactive: true}) || !r.Answer.Answers("r1") || r.Answer.Answers("r3") {
		t.Errorf("pi's tools %+v answer %+v", r.Tools, r.Answer)
	}
}

func TestSlimKeepsTheRecentCallsTools(t *testing.T) {
	doc := "{\n  \"session\": \"s\",\n  \"recent\": [\n    {\n      \"at\": \"x\",\n      \"tool\": \"Bash\",\n      \"outcome\": \"ok\"\n    },\n    {\n      \"tool\": \"Read\"\n    }\n  ],\n  \"state\": \"busy\"\n}\n"
	r, err := rowOf([]byte(doc), nil)
	if err != nil || r.LastTool != "Bash" || len(r.Tools) != 2 || r.Tools[1].Name != "Read" {
		t.Errorf("row %+v %v from %s", r, err, Slim([]byte(doc)))
	}
}
