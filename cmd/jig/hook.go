package main

import "github.com/urfave/cli/v2"

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
