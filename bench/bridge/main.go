// Command bridge measures the two ways jig's Pi extension can hand an event
// to jig: a line to one long-lived `jig pi bridge`, or one `jig session
// write` process per event. It prints a Markdown table (README.md in this
// folder keeps the last one).
//
//	go run ./bench/bridge [-n 300] [-idle 10s]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	n := flag.Int("n", 300, "events per measurement")
	idle := flag.Duration("idle", 10*time.Second, "how long to watch an idle bridge")
	flag.Parse()
	tmp, err := os.MkdirTemp("", "jig-bench-bridge")
	check(err)
	defer os.RemoveAll(tmp)
	jig := filepath.Join(tmp, "jig")
	build := exec.Command("go", "build", "-o", jig, "./cmd/jig")
	build.Stderr = os.Stderr
	check(build.Run())
	env := append(os.Environ(), "JIG_STATE_DIR="+filepath.Join(tmp, "state"), "TMUX=x", "TMUX_PANE=%1")
	// Both ways read a real transcript (the demo's, made by the end-to-end
	// test) on every event, as they do for Pi.
	demo, err := os.ReadFile("pi/replay/session.jsonl")
	check(err)
	transcript := filepath.Join(tmp, "session.jsonl")
	check(os.WriteFile(transcript, demo, 0o600))

	fmt.Printf("| measure | value |\n|---|---|\n")
	fmt.Printf("| machine | %s/%s, %d CPUs, %s |\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())

	// One bridge, n events that change the file, then n that do not.
	br := exec.Command(jig, "pi", "bridge")
	br.Env = env
	in, err := br.StdinPipe()
	check(err)
	outPipe, err := br.StdoutPipe()
	check(err)
	check(br.Start())
	out := bufio.NewReader(outPipe)
	send := func(line string) { _, err := io.WriteString(in, line+"\n"); check(err) }
	roundTrip := func() { send(`{"type":"where"}`); _, err := out.ReadString('\n'); check(err) }
	send(fmt.Sprintf(`{"type":"hello","session":"bench-bridge","pid":%d,"sessionFile":%q}`, os.Getpid(), transcript))
	roundTrip()
	start := time.Now()
	for i := 0; i < *n; i++ {
		send(fmt.Sprintf(`{"type":"live","live":{"state":"busy","context":{"tokens":%d,"window":200000}}}`, 1000+i))
	}
	roundTrip()
	changed := time.Since(start) / time.Duration(*n)
	start = time.Now()
	for i := 0; i < *n; i++ {
		send(`{"type":"live","live":{"state":"busy"}}`)
	}
	roundTrip()
	same := time.Since(start) / time.Duration(*n)
	fmt.Printf("| bridge, per event that changes the file | %s |\n", changed.Round(time.Microsecond))
	fmt.Printf("| bridge, per event that changes nothing | %s |\n", same.Round(time.Microsecond))

	// Idle: CPU and memory of a bridge that waits, looking for requests every 2 s.
	cpu0 := cpuTime(br.Process.Pid)
	time.Sleep(*idle)
	cpu1 := cpuTime(br.Process.Pid)
	fmt.Printf("| bridge, idle CPU | %s per %s (%.3f%%) |\n", (cpu1 - cpu0).Round(time.Millisecond), *idle,
		float64(cpu1-cpu0)/float64(*idle)*100)
	fmt.Printf("| bridge, resident memory | %s |\n", rss(br.Process.Pid))
	send(`{"type":"end"}`)
	in.Close()
	check(br.Wait())

	// One process per event.
	start = time.Now()
	for i := 0; i < *n/3; i++ {
		w := exec.Command(jig, "session", "write", "--session", "bench-write", "--pid", strconv.Itoa(os.Getpid()), "--transcript", transcript)
		w.Env = env
		w.Stdin = strings.NewReader(fmt.Sprintf(`{"state":"busy","context":{"tokens":%d,"window":200000}}`, 1000+i))
		check(w.Run())
	}
	perProc := time.Since(start) / time.Duration(*n/3)
	fmt.Printf("| `jig session write`, per event (a process each) | %s |\n", perProc.Round(time.Microsecond))
	fmt.Printf("| `jig session write`, idle | nothing runs |\n")
	fmt.Printf("| ratio, per event | %.0f× |\n", float64(perProc)/float64(changed))
}

// cpuTime is a process's user+system CPU time, from /proc.
func cpuTime(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	check(err)
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.Atoi(f[11])
	st, _ := strconv.Atoi(f[12])
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
}

func rss(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	check(err)
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			return strings.Join(strings.Fields(l)[1:], " ")
		}
	}
	return "?"
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
