package board

import (
	"context"
	"fmt"
	"time"

	"jig/request"
	"jig/status"
)

// Steer sends requests to a row's session: on this machine straight into
// the state dir, on another through that machine's own jig. A request
// approves nothing; the session answers in its status file.
type Steer struct {
	Dir *status.Dir
	SSH SSH
	Now func() time.Time
}

// SwitchTool asks the row's session to turn a tool on or off.
func (s Steer) SwitchTool(ctx context.Context, r Row, tool string, on bool) error {
	if err := request.CheckName(tool); err != nil {
		return err
	}
	req := request.New(s.Now())
	req.Tools = map[string]bool{tool: on}
	if r.Local {
		return s.send(r, req)
	}
	word := "off"
	if on {
		word = "on"
	}
	_, err := s.SSH.Run(ctx, r.Host, "request", "tool", tool, word, "--session", r.Session)
	return err
}

// Reload asks the row's session to reload once it is idle.
func (s Steer) Reload(ctx context.Context, r Row) error {
	req := request.New(s.Now())
	req.Reload = true
	if r.Local {
		return s.send(r, req)
	}
	_, err := s.SSH.Run(ctx, r.Host, "request", "reload", "--session", r.Session)
	return err
}

func (s Steer) send(r Row, req *request.Request) error {
	if s.Dir == nil {
		return fmt.Errorf("no state dir")
	}
	_, err := request.Send(s.Dir, r.Session, req)
	return err
}
