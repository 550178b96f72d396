// Command spawn is a yardstick of bench/hooks.md and bench/for-terminal.md:
// it runs each command line it is given as a child of this one process (so a
// hook takes the same parent for its agent at every run, and no shell stands
// between), interleaved, each with its stdin from a file, and prints a
// markdown table of each one's median wall time and its ratio to the first
// command's (a Go hello world).
//
//	spawn [-n RUNS] 'CMD ARGS... [< FILE]'...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("n", 400, "runs of each command")
	flag.Parse()
	type command struct {
		line, stdin string
		args        []string
		times       []time.Duration
	}
	var cs []*command
	for _, a := range flag.Args() {
		line, stdin, _ := strings.Cut(a, "<")
		cs = append(cs, &command{line: strings.TrimSpace(a), args: strings.Fields(line), stdin: strings.TrimSpace(stdin)})
	}
	if len(cs) == 0 {
		fmt.Fprintln(os.Stderr, "spawn: no command")
		os.Exit(2)
	}
	for range *runs {
		for _, c := range cs {
			cmd := exec.Command(c.args[0], c.args[1:]...)
			var f *os.File
			if c.stdin != "" {
				var err error
				if f, err = os.Open(c.stdin); err != nil {
					fmt.Fprintln(os.Stderr, "spawn:", err)
					os.Exit(1)
				}
				cmd.Stdin = f
			}
			t0 := time.Now()
			cmd.Run() // a hook's or a lookup's exit code is not what is measured
			c.times = append(c.times, time.Since(t0))
			if f != nil {
				f.Close()
			}
		}
	}
	fmt.Println("| command | median ms | × the first |")
	fmt.Println("|---|---:|---:|")
	var base float64
	for i, c := range cs {
		slices.Sort(c.times)
		ms := float64(c.times[len(c.times)/2].Microseconds()) / 1000
		if i == 0 {
			base = ms
		}
		fmt.Printf("| `%s` | %.2f | %.2f |\n", c.line, ms, ms/base)
	}
}
