package fast

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"jig/agents/peer"
	"jig/hook"
	"jig/hot"
	"jig/render"
)

// Call is what an agent's hook gets of e, its event on stdin.
func Call(e *hot.Env, stdin io.Reader) peer.Call {
	host, _ := e.Hostname()
	return peer.Call{Stdin: stdin, Dir: e.StateDir, Now: e.Now, Getenv: e.Getenv, Host: host}
}

// Hook is `jig AGENT hook`: stdin to a's hook, its answer on stdout. A
// refusal stands whatever became of the write (an agent takes it only from
// a hook that exits 0): the write's error goes to say, beside it.
func Hook(e *hot.Env, a peer.Agent, say func(error)) error {
	out, err := a.Hook.Run(Call(e, e.Stdin)) // a terminal says nothing: the kit's Hooks.Stdin
	if len(out) == 0 {
		return err
	}
	if _, werr := e.Stdout.Write(out); werr != nil {
		return werr
	}
	if err != nil {
		say(err)
	}
	return nil
}

// StatusLine is `jig AGENT statusline`: the JSON the agent gives its
// status-line command, on stdin, recorded (a.StatusLine), and out prints
// the line.
func StatusLine(e *hot.Env, a peer.Agent, out *render.Printer) error {
	data, err := StdinData(e)
	if err != nil {
		return err
	}
	s, err := a.StatusLine(Call(e, nil), data)
	if err != nil {
		return err
	}
	return out.Status(e.Stdout, s)
}

// StdinData is what the agent says on stdin, bounded (hook.Read); nothing
// when stdin is a terminal (a person trying the command by hand).
func StdinData(e *hot.Env) ([]byte, error) {
	if f, ok := e.Stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		return nil, nil
	}
	return hook.Read(e.Stdin)
}
