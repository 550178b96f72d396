package serve

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"jig/board"
	"jig/request"
	"jig/serve/conversation"
	"jig/status"
)

//go:embed web
var web embed.FS

// page is parsed at first use, not at the start of every jig command.
var page = sync.OnceValue(func() *template.Template { return template.Must(template.ParseFS(web, "web/page.html")) })

// Handler is every route, behind the guard.
func (s *Server) Handler() http.Handler {
	static, _ := fs.Sub(web, "web/static")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page("board"))
	mux.HandleFunc("GET /s/{host}/{id}", s.page("session"))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /api/board", s.boardRows)
	mux.HandleFunc("GET /api/events", s.events)
	mux.HandleFunc("GET /api/s/{host}/{id}", s.session)
	mux.HandleFunc("GET /api/s/{host}/{id}/messages", s.messages)
	mux.HandleFunc("GET /api/s/{host}/{id}/leaves", s.leaves)
	mux.HandleFunc("POST /api/s/{host}/{id}/switch", s.switchOne)
	mux.HandleFunc("POST /api/s/{host}/{id}/reload", s.reload)
	mux.HandleFunc("POST /api/s/{host}/{id}/focus", s.focus)
	mux.HandleFunc("POST /api/s/{host}/{id}/fork", s.fork)
	return s.guard(mux)
}

// page is the HTML of a page, with its own CSRF token; its script does the
// rest.
func (s *Server) page(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var buf bytes.Buffer
		err := page().Execute(&buf, map[string]any{"Kind": kind, "CSRF": s.csrf(), "ReadOnly": s.opt.ReadOnly})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(buf.Bytes())
	}
}

// writeJSON answers v, every string in it cleaned.
func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := cleanJSON(v)
	if err != nil {
		code, data = http.StatusInternalServerError, []byte(`{"error":"cannot encode the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}

// fail answers an error with the status code its kind maps to.
func fail(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	switch {
	case errors.Is(err, status.ErrBadInput):
		code = http.StatusBadRequest
	case errors.Is(err, status.ErrNoSession), errors.Is(err, status.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		code = http.StatusNotFound
	case errors.Is(err, status.ErrTimeout):
		code = http.StatusGatewayTimeout
	}
	writeJSON(w, code, map[string]string{"error": err.Error()})
}

func (s *Server) wait(ctx context.Context) bool {
	select {
	case <-s.hub.ready:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) boardRows(w http.ResponseWriter, r *http.Request) {
	if !s.wait(r.Context()) {
		return
	}
	data, err := s.hub.document()
	if err != nil {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

// events is the page's one event stream: each change of the rows.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok || !s.wait(r.Context()) {
		return
	}
	ch := s.hub.join()
	defer s.hub.drop(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "retry: 1000\n\n")
	fl.Flush()
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case data, ok := <-ch:
			if !ok {
				return // too slow: the page reconnects and reads the board again
			}
			fmt.Fprintf(w, "data: %s\n\n", data)
		case <-beat.C:
			fmt.Fprint(w, ": beat\n\n")
		}
		fl.Flush()
	}
}

// target is the session a route names: its row, and on this machine its
// status file.
type target struct {
	row board.Row
	st  *status.Status // nil for another machine's
}

func (s *Server) target(w http.ResponseWriter, r *http.Request) (*target, bool) {
	if !s.wait(r.Context()) {
		return nil, false
	}
	host, id := r.PathValue("host"), r.PathValue("id")
	row, ok := s.hub.row(host, id)
	if !ok {
		fail(w, status.Mark(status.ErrNoSession, fmt.Errorf("no live session %s on %s", id, host)))
		return nil, false
	}
	t := &target{row: row}
	if row.Local {
		st, err := s.opt.Board.Dir.Read(id)
		if err == nil && !s.opt.Board.Live.Alive(st) {
			err = status.Mark(status.ErrNoSession, fmt.Errorf("session %s has ended", id))
		}
		if err != nil {
			fail(w, err)
			return nil, false
		}
		t.st = st
	}
	return t, true
}

// reader is the conversation reader of a local session with a transcript.
func (s *Server) reader(t *target) (conversation.Reader, string) {
	if t.st == nil || t.st.SessionFile == nil || *t.st.SessionFile == "" {
		return nil, ""
	}
	return s.opt.Conversations[t.st.Agent], *t.st.SessionFile
}

// session is everything the status file says, and what the page may do.
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	var doc json.RawMessage
	if t.st != nil {
		doc = t.st.Raw()
	} else {
		out, err := s.opt.Board.SSH.Run(r.Context(), t.row.Host, "session", "show", t.row.Session, "--json")
		if err != nil || !json.Valid(out) {
			doc = []byte("null") // the row alone, then
		} else {
			doc = out
		}
	}
	rd, _ := s.reader(t)
	_, tree := rd.(conversation.Tree)
	writeJSON(w, http.StatusOK, map[string]any{"row": t.row, "status": doc, "conversation": rd != nil,
		"tree": tree, "readOnly": s.opt.ReadOnly, "local": t.row.Local})
}

// messages is one page of the conversation.
func (s *Server) messages(w http.ResponseWriter, r *http.Request) {
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	rd, file := s.reader(t)
	if rd == nil {
		fail(w, status.Mark(status.ErrNotFound, errors.New("no conversation this server can read for this session")))
		return
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	msgs, err := rd.Read(file, conversation.Page{Before: q.Get("before"), Leaf: q.Get("leaf"), Limit: limit})
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, msgs)
}

// leaves is a tree conversation's branch ends.
func (s *Server) leaves(w http.ResponseWriter, r *http.Request) {
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	rd, file := s.reader(t)
	tree, isTree := rd.(conversation.Tree)
	if !isTree {
		fail(w, status.Mark(status.ErrNotFound, errors.New("this session's conversation has no branches")))
		return
	}
	leaves, err := s.trees.leaves(r.Context(), tree, file)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"leaves": leaves})
}

// body decodes a call's JSON body into v, refusing anything else.
func body(w http.ResponseWriter, r *http.Request, v any) bool {
	d := json.NewDecoder(r.Body)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		fail(w, status.Mark(status.ErrBadInput, fmt.Errorf("body: %v", err)))
		return false
	}
	return true
}

func (s *Server) fork(w http.ResponseWriter, r *http.Request) {
	var in struct {
		At string `json:"at"`
	}
	if !body(w, r, &in) {
		return
	}
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	rd, file := s.reader(t)
	tree, isTree := rd.(conversation.Tree)
	if !isTree || in.At == "" {
		fail(w, status.Mark(status.ErrBadInput, errors.New("fork wants a session whose conversation is a tree, and an entry")))
		return
	}
	path, err := tree.Fork(file, in.At)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"path": path})
}

func (s *Server) focus(w http.ResponseWriter, r *http.Request) {
	var in struct{}
	if !body(w, r, &in) {
		return
	}
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	if err := s.opt.Board.SSH.Jump(r.Context(), t.row); err != nil {
		if errors.Is(err, board.ErrCannotJump) {
			err = status.Mark(status.ErrNotFound, err)
		}
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

func (s *Server) switchOne(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Kind string `json:"kind"` // tool or skill
		Name string `json:"name"`
		On   bool   `json:"on"`
	}
	if !body(w, r, &in) {
		return
	}
	if in.Kind != "tool" && in.Kind != "skill" {
		fail(w, status.Mark(status.ErrBadInput, errors.New("kind: want tool or skill")))
		return
	}
	if err := request.CheckName(in.Name); err != nil {
		fail(w, status.Mark(status.ErrBadInput, err))
		return
	}
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	req := request.New(s.opt.Now())
	if in.Kind == "tool" {
		req.Tools[in.Name] = in.On
	} else {
		req.Skills[in.Name] = in.On
	}
	word := "off"
	if in.On {
		word = "on"
	}
	s.ask(w, r, t, req, in.Kind, in.Name, word)
}

func (s *Server) reload(w http.ResponseWriter, r *http.Request) {
	var in struct{}
	if !body(w, r, &in) {
		return
	}
	t, ok := s.target(w, r)
	if !ok {
		return
	}
	req := request.New(s.opt.Now())
	req.Reload = true
	s.ask(w, r, t, req, "reload")
}

// ask sends a request as `jig request` does (on another machine through
// its jig) and answers with the session's answer, or that none came yet.
// A request approves nothing.
func (s *Server) ask(w http.ResponseWriter, r *http.Request, t *target, req *request.Request, words ...string) {
	if !t.row.Local {
		args := append(append([]string{"request"}, words...), "--session", t.row.Session, "--wait="+s.opt.AnswerWait.String())
		ssh := s.opt.Board.SSH
		ssh.Timeout = s.opt.AnswerWait + board.HostTimeout // the answer's wait, and the host's own time
		out, err := ssh.Run(r.Context(), t.row.Host, args...)
		if err != nil {
			fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"answer": map[string]any{"ok": true, "message": strings.TrimSpace(string(out))}})
		return
	}
	dir := s.opt.Board.Dir
	if _, err := request.Send(dir, t.row.Session, req); err != nil {
		fail(w, err)
		return
	}
	ans, err := request.Await(dir, t.row.Session, req.ID, s.opt.Board.Live, s.opt.AnswerWait)
	if errors.Is(err, status.ErrTimeout) {
		writeJSON(w, http.StatusAccepted, map[string]any{"id": req.ID, "waiting": true})
		return
	}
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": req.ID, "answer": ans})
}
