// Command genstate fills a state dir with live sessions of the largest
// realistic size for bench/for-terminal.sh: 50 + 50 outputs, 15 recent
// calls, a context detail, each in its own terminal, written through
// status.Dir.Write as jig writes them (so the terminal index is kept).
//
//	genstate -dir DIR -n 500 -pid PID
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"jig/status"
)

func main() {
	dir := flag.String("dir", "", "the state dir to fill")
	n := flag.Int("n", 500, "how many sessions")
	pid := flag.Int("pid", os.Getppid(), "the live process every session names")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "genstate: -dir is required")
		os.Exit(2)
	}
	d := &status.Dir{Root: *dir}
	host, _ := os.Hostname()
	now := time.Now()
	for i := range *n {
		s := session(i, *pid, host, now)
		if _, err := d.Write(s, now); err != nil {
			fmt.Fprintln(os.Stderr, "genstate:", err)
			os.Exit(1)
		}
	}
}

func session(i, pid int, host string, now time.Time) *status.Status {
	repo := fmt.Sprintf("/home/ana/src/project-%03d", i)
	term := fmt.Sprintf("t%d", i)
	from := "HC_TERMINAL_ID"
	thinking := "medium"
	tokens, window, cost := int64(84210), int64(200000), 0.8731
	s := &status.Status{
		Session: fmt.Sprintf("0190a7c2-5f3e-7b21-9d44-%012d", i), PID: pid, Host: host, CWD: repo,
		Terminal: &term, TerminalFrom: &from,
		Terminals: []status.TerminalID{{From: from, ID: term}, {From: "WEZTERM_PANE", ID: fmt.Sprint(i)}},
		AgentDir:  "/home/ana/.pi/agent",
		Model:     &status.Model{Provider: "anthropic", ID: "claude-sonnet-4-5", Name: "Claude Sonnet 4.5"},
		Thinking:  &thinking, State: status.Busy,
		Context:   status.Context{Tokens: &tokens, Window: &window},
		Usage:     status.Usage{Input: 1204, Output: 18220, CacheRead: 640112, CacheWrite: 70433, Cost: &cost},
		Tools:     status.Tools{Active: 7, Total: 9},
		Ticket:    &status.Ticket{Key: "SHOP-142", Title: "Refunds for split orders", URL: "https://example.atlassian.net/browse/SHOP-142"},
		Workflow:  &status.Workflow{Name: "feature", Stages: []string{"plan", "build", "review"}, Current: "build"},
		StartedAt: now,
	}
	for k := range 50 {
		at := now.Add(-time.Duration(k) * time.Minute)
		s.Outputs = append(s.Outputs,
			status.Output{Path: fmt.Sprintf("%s/internal/pkg%02d/handler_%02d.go", repo, k%9, k), Action: status.Changed, At: at, Repo: &repo},
			status.Output{Path: fmt.Sprintf("/home/ana/notes/SHOP-142/evidence/run-%02d.md", k), Action: status.Created, At: at})
	}
	for k := range 15 {
		s.Recent = append(s.Recent, status.Call{At: now.Add(-time.Duration(k) * time.Second), Tool: "edit", Decision: "allow", Outcome: status.OK})
	}
	s.ContextDetail = &status.ContextDetail{Window: &window, Tokens: tokens,
		Parts: []status.ContextPart{{Name: "system", Tokens: 3120}, {Name: "tools", Tokens: 5400}, {Name: "skills", Tokens: 900}, {Name: "files", Tokens: 1400}, {Name: "messages", Tokens: 59590}, {Name: "toolResults", Tokens: 13800}}}
	for k, name := range []string{"read", "bash", "edit", "write", "grep", "find", "ls", "todo", "web"} {
		s.ContextDetail.Tools = append(s.ContextDetail.Tools, status.ContextItem{Name: name, Source: "builtin", Tokens: int64(400 + 50*k)})
	}
	for k := range 6 {
		s.ContextDetail.Skills = append(s.ContextDetail.Skills, status.ContextItem{Name: fmt.Sprintf("skill-%d", k), Source: fmt.Sprintf("/home/ana/.pi/agent/skills/skill-%d/SKILL.md", k), Tokens: 150})
	}
	s.ContextDetail.Files = []status.ContextItem{{Name: "AGENTS.md", Source: repo + "/AGENTS.md", Tokens: 1400}}
	return s
}
