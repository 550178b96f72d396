// Command transcript-bench measures jig's transcript reader against Pi's own
// way of loading a session (Node, line by line JSON.parse) on the same
// files. run.sh drives it; RESULTS.md holds the last table.
//
//	transcript-bench gen OUT BYTES SRC...   a big v1 transcript from real ones
//	transcript-bench parse FILE RUNS        best whole-file read, ms
//	transcript-bench append FILE RUNS       median Update+Derive after one appended entry, µs
//	transcript-bench rss FILE               peak RSS (VmHWM) after a whole read, KB
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"jig/transcript"
)

func main() {
	if len(os.Args) < 3 {
		fail("usage: transcript-bench gen|parse|append|rss FILE ...")
	}
	var err error
	switch os.Args[1] {
	case "gen":
		n, _ := strconv.ParseInt(os.Args[3], 10, 64)
		err = gen(os.Args[2], n, os.Args[4:])
	case "parse":
		err = parse(os.Args[2], runs())
	case "append":
		err = appendOne(os.Args[2], runs())
	case "rss":
		err = rss(os.Args[2])
	default:
		fail("unknown mode " + os.Args[1])
	}
	if err != nil {
		fail(err.Error())
	}
}

func runs() int {
	if len(os.Args) > 3 {
		if n, err := strconv.Atoi(os.Args[3]); err == nil && n > 0 {
			return n
		}
	}
	return 5
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "transcript-bench:", msg)
	os.Exit(1)
}

// gen writes the first source's header, then the sources' entry lines over
// and over until the file has about n bytes: a long v1 session, bad lines
// and all.
func gen(out string, n int64, srcs []string) error {
	var header []byte
	var body [][]byte
	for _, s := range srcs {
		data, err := os.ReadFile(s)
		if err != nil {
			return err
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if header == nil {
			header = lines[0]
		}
		for _, l := range lines[1:] {
			if len(l) > 0 && l[len(l)-1] == '\n' {
				body = append(body, l)
			}
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.Write(header)
	size := int64(len(header))
	for size < n {
		for _, l := range body {
			if size >= n {
				break
			}
			w.Write(l)
			size += int64(len(l))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

func parse(file string, runs int) error {
	best := time.Duration(1 << 62)
	entries := 0
	for i := 0; i < runs; i++ {
		t0 := time.Now()
		r := transcript.NewReader(file)
		if err := r.Update(); err != nil {
			return err
		}
		d := r.Derive(nil)
		if el := time.Since(t0); el < best {
			best = el
		}
		entries = d.Entries
	}
	fmt.Printf(`{"ms":%.3f,"entries":%d}`+"\n", float64(best.Microseconds())/1000, entries)
	return nil
}

// entryLine is one real-looking assistant entry with a tool call.
const entryLine = `{"type":"message","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Let me look at the file."},{"type":"toolCall","id":"toolu_bench","name":"read","arguments":{"path":"src/main.go"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-opus-4-5","usage":{"input":3,"output":88,"cacheRead":4442,"cacheWrite":120,"totalTokens":4653,"cost":{"input":0.000015,"output":0.0022,"cacheRead":0.002221,"cacheWrite":0.00075,"total":0.005186}},"stopReason":"toolUse","timestamp":1766000357543}}` + "\n"

// appendOne reads file, then times Update+Derive after each entry it
// appends to it: what a bridge or a hook pays per tool call. The file grows
// by runs+200 lines; run.sh hands it a file made for the purpose.
func appendOne(file string, runs int) error {
	tmp, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	r := transcript.NewReader(file)
	if err := r.Update(); err != nil {
		return err
	}
	for i := 0; i < 200; i++ { // warm up: the first Derive sorts, caches fill
		tmp.WriteString(entryLine)
		r.Update()
		r.Derive(nil)
	}
	var times []time.Duration
	for i := 0; i < runs; i++ {
		tmp.WriteString(entryLine)
		t0 := time.Now()
		if err := r.Update(); err != nil {
			return err
		}
		r.Derive(nil)
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Printf(`{"us":%.1f}`+"\n", float64(times[len(times)/2].Nanoseconds())/1000)
	return tmp.Close()
}

func rss(file string) error {
	r := transcript.NewReader(file)
	if err := r.Update(); err != nil {
		return err
	}
	d := r.Derive(nil)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return err
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb := strings.Fields(l)[1]
			fmt.Printf(`{"kb":%s,"entries":%d}`+"\n", kb, d.Entries)
			return nil
		}
	}
	return fmt.Errorf("no VmHWM in /proc/self/status")
}
