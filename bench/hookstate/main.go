// Command hookstate writes, for bench/hooks.sh, a session of realistic
// size for each hook-driven agent (Claude Code, Codex, Gemini CLI, Qwen
// Code): 200 calls with their results and 200 written files in the
// agent's own transcript format, its last reply's call still running, and
// the hook inputs the bench sends (that call's PreToolUse, Claude's
// Notification), each agent's session id its own, so one state dir holds
// them all. The bench's first hook reads each transcript; every hook after
// it finds nothing new.
//
//	go run ./bench/hookstate DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: hookstate DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	for _, a := range []func(string) error{claude, codex, gemini, qwen} {
		if err := a(dir); err != nil {
			fmt.Fprintln(os.Stderr, "hookstate:", err)
			os.Exit(1)
		}
	}
}

// write puts lines (a newline after each) or one input at dir/name.
func write(dir, name string, lines ...string) error {
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
}

func claude(dir string) error {
	t := filepath.Join(dir, "home/.claude/projects/-w/claude-1.jsonl")
	var lines []string
	call := func(id, path string) string {
		return `{"parentUuid":null,"isSidechain":false,"message":{"content":[{"id":"` + id + `","input":{"file_path":"` + path + `"},"name":"Edit","type":"tool_use"}],` +
			`"id":"msg_` + id + `","model":"claude-opus-5-5","role":"assistant","stop_reason":"tool_use","type":"message",` +
			`"usage":{"input_tokens":1000,"cache_creation_input_tokens":0,"cache_read_input_tokens":500,"output_tokens":40}},` +
			`"type":"assistant","timestamp":"2026-11-30T12:00:00Z","cwd":"/w","sessionId":"claude-1"}`
	}
	for i := range 200 {
		id := fmt.Sprintf("toolu_%d", i)
		lines = append(lines, call(id, fmt.Sprintf("/w/f%d.go", i)),
			`{"isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"`+id+`","type":"tool_result","content":"ok"}]},`+
				`"timestamp":"2026-11-30T12:00:01Z","toolUseResult":{"filePath":"/w/f`+fmt.Sprint(i)+`.go"},"sessionId":"claude-1"}`)
	}
	lines = append(lines, call("toolu_last", "/w/last.go"))
	if err := write(dir, "home/.claude/projects/-w/claude-1.jsonl", lines...); err != nil {
		return err
	}
	head := `{"session_id":"claude-1","transcript_path":"` + t + `","cwd":"/w",`
	if err := write(dir, "claude-pre.json", head+`"hook_event_name":"PreToolUse","tool_name":"Edit","tool_use_id":"toolu_last","tool_input":{"file_path":"/w/last.go"}}`); err != nil {
		return err
	}
	return write(dir, "claude-note.json", head+`"hook_event_name":"Notification","notification_type":"idle_prompt"}`)
}

func codex(dir string) error {
	name := "codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-codex-1.jsonl"
	lines := []string{
		`{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"codex-1","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","model_provider":"openai"}}`,
		`{"timestamp":"2026-12-01T10:00:00.000Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5","effort":"medium"}}`,
	}
	for i := range 200 {
		lines = append(lines,
			fmt.Sprintf(`{"timestamp":"2026-12-01T10:00:01.000Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"","call_id":"p%d"}}`, i),
			fmt.Sprintf(`{"timestamp":"2026-12-01T10:00:02.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"p%d","status":"completed","changes":{"/w/f%d.go":{"type":"update"}}}}}`, i, i),
			fmt.Sprintf(`{"timestamp":"2026-12-01T10:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":500,"output_tokens":40,"total_tokens":1040},"last_token_usage":{"input_tokens":1000,"output_tokens":40,"total_tokens":1040},"model_context_window":258400}}}`, (i+1)*1000))
	}
	lines = append(lines, `{"timestamp":"2026-12-01T10:00:03.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"last"}}`)
	if err := write(dir, name, lines...); err != nil {
		return err
	}
	return write(dir, "codex-pre.json", `{"session_id":"codex-1","transcript_path":"`+filepath.Join(dir, name)+`","cwd":"/w","hook_event_name":"PreToolUse",`+
		`"tool_name":"Bash","tool_use_id":"last","tool_input":{"command":"go test ./..."}}`)
}

func gemini(dir string) error {
	name := "gemini/tmp/w/chats/session-2026-12-01T10-00-gemini-1.jsonl"
	lines := []string{`{"sessionId":"gemini-1","projectHash":"h","startTime":"2026-12-01T10:00:00.000Z","kind":"main"}`}
	for i := range 200 {
		lines = append(lines, fmt.Sprintf(`{"id":"m%d","timestamp":"2026-12-01T10:00:01.000Z","type":"gemini","content":"","model":"gemini-2.5-flash",`+
			`"tokens":{"input":1000,"output":40,"cached":500,"thoughts":0,"tool":0,"total":1040},`+
			`"toolCalls":[{"id":"c%d","name":"replace","args":{},"status":"success","resultDisplay":{"filePath":"/w/f%d.go","isNewFile":false}}]}`, i, i, i))
	}
	if err := write(dir, name, lines...); err != nil {
		return err
	}
	if err := write(dir, "gemini-pre.json", `{"session_id":"gemini-1","transcript_path":"`+filepath.Join(dir, name)+`","cwd":"/w","hook_event_name":"BeforeTool",`+
		`"tool_name":"replace","tool_input":{"file_path":"/w/last.go"}}`); err != nil {
		return err
	}
	// BeforeModel, once per model request: the turn goes on, nothing new
	// once an earlier event said so. The request's messages follow its model.
	contents := strings.Repeat(`{"role":"user","parts":[{"text":"go on"}]},`, 50)
	return write(dir, "gemini-model.json", `{"session_id":"gemini-1","transcript_path":"`+filepath.Join(dir, name)+`","cwd":"/w","hook_event_name":"BeforeModel",`+
		`"llm_request":{"model":"gemini-2.5-flash","contents":[`+contents+`{"role":"user","parts":[{"text":"last"}]}]}}`)
}

func qwen(dir string) error {
	name := "qwen/projects/-w/chats/qwen-1.jsonl"
	var lines []string
	for i := range 200 {
		at := fmt.Sprintf("2026-12-01T10:%02d:%02d.000Z", i/60, i%60)
		lines = append(lines,
			fmt.Sprintf(`{"uuid":"a%d","sessionId":"qwen-1","timestamp":"%s","type":"assistant","cwd":"/w","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"id":"c%d","name":"write_file","args":{"file_path":"/w/f%d.go","content":"package f"}}}]},"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":40,"cachedContentTokenCount":500}}`, i, at, i, i, 1000*(i+1)),
			fmt.Sprintf(`{"uuid":"r%d","sessionId":"qwen-1","timestamp":"%s","type":"tool_result","cwd":"/w","message":{"role":"user","parts":[{"functionResponse":{"id":"c%d","name":"write_file","response":{"output":"ok"}}}]},"toolCallResult":{"callId":"c%d","status":"success"}}`, i, at, i, i))
	}
	lines = append(lines, `{"uuid":"z","sessionId":"qwen-1","timestamp":"2026-12-01T11:00:00.000Z","type":"assistant","cwd":"/w","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"id":"last","name":"read_file","args":{"file_path":"/w/a.go"}}}]}}`)
	if err := write(dir, name, lines...); err != nil {
		return err
	}
	return write(dir, "qwen-pre.json", `{"session_id":"qwen-1","transcript_path":"`+filepath.Join(dir, name)+`","cwd":"/w","hook_event_name":"PreToolUse",`+
		`"tool_name":"read_file","tool_use_id":"toolu_1","tool_call_id":"last","tool_input":{"file_path":"/w/a.go"}}`)
}
