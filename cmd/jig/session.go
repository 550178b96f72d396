package main

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/urfave/cli/v2"

	"jig/engine"
	"jig/status"
	"jig/terminal"
	"jig/transcript"
)

func sessionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:            "session",
		Usage:           "write, find and read session status files",
		UsageText:       "jig session COMMAND [options] [arguments]\n\nexample: jig session list",
		HideHelpCommand: true,
		Subcommands: []*cli.Command{
			sessionWriteCommand(e),
			sessionForTerminalCommand(e),
			sessionListCommand(e),
			sessionShowCommand(e),
			sessionPathCommand(e),
			sessionGCCommand(e),
			sessionContextCommand(e),
			sessionWaitCommand(e),
			sessionWatchCommand(e),
		},
	}
}

func sessionWriteCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "write",
		Usage: "write a session's status file from what the agent says on stdin",
		UsageText: "jig session write --session ID [--pid N] [--transcript FILE] [--end] < fields.json\n\n" +
			`example: echo '{"state":"busy","model":{"provider":"anthropic","id":"claude-sonnet-4-5","name":"Claude Sonnet 4.5"}}' | jig session write --session 0190a`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "session", Usage: "the agent's session `ID` (required)"},
			&cli.IntFlag{Name: "pid", Usage: "the agent's process `N` (default: the parent process)"},
			&cli.BoolFlag{Name: "end", Usage: "the session is over: remove its file"},
			&cli.StringFlag{Name: "transcript", Usage: "derive model, usage, context, outputs and recent calls from Pi's session `FILE` (stdin still wins)"},
		},
		Action: func(c *cli.Context) error {
			id := c.String("session")
			var derived *transcript.Derived
			if file := c.String("transcript"); file != "" && !c.Bool("end") {
				dir, err := e.stateDir()
				if err != nil {
					return err
				}
				if derived, err = e.readTranscript(dir, id, file); err != nil {
					code := exitFailed
					if errors.As(err, new(badTranscript)) {
						code = exitBadInput
					}
					return errorf(c, stateErrorCode(err, code), "%v", err)
				}
				if id == "" && derived != nil {
					id = derived.Header.ID
				}
			}
			if err := needSession(c, id); err != nil {
				return err
			}
			dir, err := e.stateDir()
			if err != nil {
				return err
			}
			if c.Bool("end") {
				if err := dir.Check(cursorsDir); err != nil {
					return errorf(c, exitStateDir, "%v", err)
				}
				if err := dir.Remove(id); err != nil {
					return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
				}
				if err := os.Remove(cursorPath(dir, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
				}
				return nil
			}
			live, err := e.readStdin()
			if err != nil {
				return errorf(c, exitBadInput, "stdin: %v", err)
			}
			if len(live) > status.MaxFileSize {
				return errorf(c, exitBadInput, "stdin: larger than %d bytes", status.MaxFileSize)
			}
			pid := c.Int("pid")
			if pid < 0 {
				return usageError(c, "--pid %d: want a process id", pid)
			}
			if pid == 0 {
				pid = os.Getppid()
			}
			var badInput error
			_, err = dir.Update(id, e.now(), func(prev *status.Status) (*status.Status, error) {
				s, err := e.buildStatus(prev, id, pid, derived, live)
				badInput = err
				if err == nil {
					e.fillTicket(c, s, dir, live)
				}
				return s, err
			})
			if badInput != nil {
				return errorf(c, exitBadInput, "%v", badInput)
			}
			if err != nil {
				return errorf(c, stateErrorCode(err, exitFailed), "%v", err)
			}
			return nil
		},
	}
}

// buildStatus lays the transcript and what the agent says live over the
// previous file (engine.Build) and fills what the environment knows and
// nobody said. Its errors are the input's.
func (e *env) buildStatus(prev *status.Status, id string, pid int, derived *transcript.Derived, live []byte) (*status.Status, error) {
	s, err := engine.Build(prev, derived, live)
	if err != nil {
		return nil, errors.New("stdin: " + err.Error())
	}
	s.Session, s.PID = id, pid
	if derived != nil && s.SessionFile == nil {
		f := derived.File
		s.SessionFile = &f
	}
	e.fillFromEnvironment(s)
	s.Normalize()
	if err := s.Validate(); err != nil {
		return nil, errors.New("stdin: " + err.Error())
	}
	return s, nil
}

// fillFromEnvironment sets cwd, terminals, host, agent and agentDir where
// nobody said them.
func (e *env) fillFromEnvironment(s *status.Status) {
	if s.CWD == "" {
		s.CWD, _ = os.Getwd()
	}
	if s.Host == "" {
		s.Host, _ = e.hostname()
	}
	if len(s.Terminals) == 0 {
		s.Terminals = terminal.Detect(e.getenv)
	}
	if s.Terminal == nil {
		if t := terminal.Innermost(s.Terminals); t != nil {
			s.Terminal, s.TerminalFrom = &t.ID, &t.From
		}
	}
	if s.Agent == "" {
		s.Agent = status.AgentPi
	}
	if s.AgentDir == "" {
		s.AgentDir = e.agentDir() // the bridge's rule: Pi's own
	}
}

// stateErrorCode is exitStateDir for a state dir jig must not trust (a
// foreign or loose folder, a planted symlink), else the command's code.
func stateErrorCode(err error, otherwise int) int {
	if errors.Is(err, status.ErrUnsafeDir) || errors.Is(err, status.ErrSymlink) {
		return exitStateDir
	}
	return otherwise
}

// readStdin reads what the agent says, up to one byte more than a status
// file may hold. A terminal says nothing: run by hand, the command does not
// wait for typing.
func (e *env) readStdin() ([]byte, error) {
	if f, ok := e.stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		return nil, nil
	}
	return io.ReadAll(io.LimitReader(e.stdin, status.MaxFileSize+1))
}
