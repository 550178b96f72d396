package board

import (
	"context"
	"fmt"
	"strings"
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
	_, err := s.SendTool(ctx, r, tool, on)
	return err
}

// Reload asks the row's session to reload once it is idle.
func (s Steer) Reload(ctx context.Context, r Row) error {
	_, err := s.SendReload(ctx, r)
	return err
}

// SendTool is SwitchTool, and the id of the request it sent.
func (s Steer) SendTool(ctx context.Context, r Row, tool string, on bool) (string, error) {
	if err := request.CheckName(tool); err != nil {
		return "", err
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
	return s.remote(ctx, r, "request", "tool", tool, word, "--session", r.Session)
}

// SendReload is Reload, and the id of the request it sent.
func (s Steer) SendReload(ctx context.Context, r Row) (string, error) {
	req := request.New(s.Now())
	req.Reload = true
	if r.Local {
		return s.send(r, req)
	}
	return s.remote(ctx, r, "request", "reload", "--session", r.Session)
}

// remote sends a request through the row's host's jig, which prints its id.
func (s Steer) remote(ctx context.Context, r Row, args ...string) (string, error) {
	out, err := s.SSH.Run(ctx, r.Host, args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func (s Steer) send(r Row, req *request.Request) (string, error) {
	if s.Dir == nil {
		return "", fmt.Errorf("no state dir")
	}
	_, err := request.Send(s.Dir, r.Session, req)
	return req.ID, err
}
