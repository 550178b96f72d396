// Command transcript-bench measures jig's transcript reader against Pi's own
// way of loading a session (Node, line by line JSON.parse) on the same
// files. run.sh drives it; RESULTS.md holds the last table.
//
//	transcript-bench gen OUT BYTES SRC...   a big transcript grown from SRC (fixtures.Grow)
//	transcript-bench parse FILE RUNS        best whole-file read, ms
//	transcript-bench append FILE RUNS       median Update+Derive after one appended entry, µs
//	transcript-bench rss FILE               peak RSS (VmHWM) after a whole read, KB
//	transcript-bench v3 IN OUT              IN with a v3 header and an 8-hex id and parentId on every entry (IN already v3: copied)
//	transcript-bench line                   one entry line as Pi appends it after a tool call
//	transcript-bench sessions DIR N SRC...  N session files of about 85 KB in 20 cwd folders under DIR
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"jig/internal/fixtures"
	"jig/pi/transcript"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "line" {
		fmt.Print(entryLine)
		return
	}
	if len(os.Args) < 3 {
		fail("usage: transcript-bench gen|parse|append|rss|v3|line|sessions FILE ...")
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
	case "v3":
		err = toV3(os.Args[2], os.Args[3])
	case "sessions":
		n, _ := strconv.Atoi(os.Args[3])
		err = sessions(os.Args[2], n, os.Args[4:])
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

// gen writes the first source's header, then the sources' entry lines
// over and over until the file has about n bytes: a long session, bad lines
// and all, with fresh ids in each round when the sources have ids.
func gen(out string, n int64, srcs []string) error {
	var all []byte
	for i, s := range srcs {
		data, err := os.ReadFile(s)
		if err != nil {
			return err
		}
		if i > 0 { // one header: the first source's
			data = data[bytes.IndexByte(data, '\n')+1:]
		}
		if j := bytes.LastIndexByte(data, '\n'); j >= 0 {
			all = append(all, data[:j+1]...) // whole lines only
		}
	}
	return os.WriteFile(out, fixtures.Grow(all, int(n)), 0o600)
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

// toV3 turns a v1 transcript into the v3 shape: a version on the header and
// an id and parentId on every entry, chained in file order, so the reader
// keeps its id index as it does for a current Pi session.
func toV3(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if head, _, _ := bytes.Cut(data, []byte("\n")); bytes.Contains(head, []byte(`"version":`)) {
		return os.WriteFile(out, data, 0o600)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	parent := "null"
	for i, l := range bytes.SplitAfter(data, []byte("\n")) {
		if !json.Valid(l) {
			w.Write(l) // a bad line stays bad and out of the chain, as Pi skips it
			continue
		}
		if i == 0 {
			fmt.Fprintf(w, `{"version":3,%s`, l[1:])
			continue
		}
		id := fmt.Sprintf(`"%08x"`, i)
		fmt.Fprintf(w, `{"id":%s,"parentId":%s,%s`, id, parent, l[1:])
		parent = id
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// sessions writes n session files in 20 cwd folders under dir, as Pi keeps
// them: a v3 header of its own, about 85 KB of real entry lines, and a
// session_info name near the end.
func sessions(dir string, n int, srcs []string) error {
	var body [][]byte
	for _, s := range srcs {
		data, err := os.ReadFile(s)
		if err != nil {
			return err
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for _, l := range lines[1:] {
			if len(l) > 0 && l[len(l)-1] == '\n' {
				body = append(body, l)
			}
		}
	}
	at := 0
	for i := 0; i < n; i++ {
		cwd := fmt.Sprintf("/home/me/src/project-%02d", i%20)
		folder := dir + "/--home-me-src-project-" + fmt.Sprintf("%02d", i%20) + "--"
		if err := os.MkdirAll(folder, 0o700); err != nil {
			return err
		}
		started := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
		id := fmt.Sprintf("0190a000-0000-7000-8000-%012d", i)
		name := fmt.Sprintf("%s/%s_%s.jsonl", folder, strings.ReplaceAll(started.Format("2006-01-02T15-04-05.000Z"), ".", "-"), id)
		var b bytes.Buffer
		fmt.Fprintf(&b, `{"type":"session","version":3,"id":"%s","timestamp":"%s","cwd":"%s"}`+"\n", id, started.Format(time.RFC3339Nano), cwd)
		for b.Len() < 85_000 {
			b.Write(body[at%len(body)])
			at++
		}
		fmt.Fprintf(&b, `{"type":"session_info","id":"info%04d","parentId":null,"timestamp":"%s","name":"session %d"}`+"\n", i, started.Format(time.RFC3339Nano), i)
		if err := os.WriteFile(name, b.Bytes(), 0o600); err != nil {
			return err
		}
	}
	return nil
}
