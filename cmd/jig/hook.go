package main

import (
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"
)

// hookStdin is a hook command's stdin, which the agent's package reads
// with its own bounds; a terminal says nothing (run by hand, the hook does
// not wait for typing).
func hookStdin(c *cli.Context, stdin io.Reader) (io.Reader, error) {
	if err := noArgs(c); err != nil {
		return nil, err
	}
	if f, ok := stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		return strings.NewReader(""), nil
	}
	return stdin, nil
}

// hookAnswer prints a hook's answer: a refusal stands whatever became of
// the write (an agent takes it only from a hook that exits 0), the write's
// error said on stderr beside it.
func (e *env) hookAnswer(c *cli.Context, out []byte, err error) error {
	if len(out) == 0 {
		return err
	}
	if _, werr := e.stdout.Write(out); werr != nil {
		return werr
	}
	if err != nil {
		sayError(e.stderr, c, err)
	}
	return nil
}
