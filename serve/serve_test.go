package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/board"
	"jig/request"
	"jig/serve/conversation"
	"jig/status"
)

const (
	testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	testAddr  = "127.0.0.1:7420"
	hostile   = `<img src=x onerror=alert(1)><script>alert(2)</script>`
)

// fakeReader is a conversation reader with one page: serve's own tests
// need no agent.
type fakeReader struct{}

func (fakeReader) Read(path string, p conversation.Page) (*conversation.Messages, error) {
	return &conversation.Messages{Messages: []conversation.Message{
		{ID: "e1", Role: "user", Text: "hello " + hostile},
		{ID: "e2", Role: "assistant", Text: "line one\n\x1b[31mred\tok", Calls: []conversation.Call{{Name: "bash", Input: `{"command":"ls"}`, Result: "a\nb", Done: true}}},
	}}, nil
}

type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) { l.mu.Lock(); defer l.mu.Unlock(); return l.b.Write(p) }
func (l *logBuf) String() string              { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

type fixture struct {
	t   *testing.T
	dir *status.Dir
	srv *Server
	log *logBuf
}

func writeStatus(t *testing.T, dir *status.Dir, session, model string) {
	t.Helper()
	if err := write(dir, session, model); err != nil {
		t.Fatal(err)
	}
}

func write(dir *status.Dir, session, model string) error {
	file := "/tmp/transcript.jsonl"
	s := &status.Status{Schema: 1, Session: session, PID: os.Getpid(), Host: "h", Agent: "fake", CWD: "/src/shop",
		State: status.Idle, SessionFile: &file, Model: &status.Model{Provider: "p", ID: "m", Name: model}}
	_, err := dir.Write(s, time.Now())
	return err
}

func newFixture(t *testing.T, readOnly bool) *fixture {
	t.Helper()
	failDelay = time.Millisecond
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	writeStatus(t, dir, "s1", hostile)
	log := &logBuf{}
	srv, err := New(Options{Board: &board.Board{Dir: dir, Live: status.Liveness{Host: "h"}, Host: "h"}, ReadOnly: readOnly,
		Token: testToken, Log: log, AnswerWait: 50 * time.Millisecond,
		Conversations: map[string]conversation.Reader{"fake": fakeReader{}}}, testAddr)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go srv.hub.run(ctx)
	return &fixture{t: t, dir: dir, srv: srv, log: log}
}

// do sends one request: with the cookie when auth, from the page's own
// origin with its CSRF token for a POST.
func (f *fixture) do(method, path string, body string, auth bool, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(method, "http://"+testAddr+path, strings.NewReader(body))
	if auth {
		r.AddCookie(&http.Cookie{Name: "jig_serve_7420", Value: testToken})
	}
	if method == http.MethodPost {
		r.Header.Set("Origin", "http://"+testAddr)
		r.Header.Set(csrfHeader, f.srv.csrf())
		r.Header.Set("Content-Type", "application/json")
	}
	for _, e := range edit {
		e(r)
	}
	w := httptest.NewRecorder()
	f.srv.Handler().ServeHTTP(w, r)
	return w
}

var routes = []struct{ method, path, body string }{
	{"GET", "/", ""}, {"GET", "/s/h/s1", ""}, {"GET", "/static/app.js", ""}, {"GET", "/static/app.css", ""},
	{"GET", "/api/board", ""}, {"GET", "/api/events", ""}, {"GET", "/api/s/h/s1", ""},
	{"GET", "/api/s/h/s1/messages", ""}, {"GET", "/api/s/h/s1/leaves", ""},
	{"POST", "/api/s/h/s1/switch", `{"kind":"tool","name":"bash","on":false}`}, {"POST", "/api/s/h/s1/reload", "{}"},
	{"POST", "/api/s/h/s1/focus", "{}"}, {"POST", "/api/s/h/s1/fork", `{"at":"e1"}`}, {"GET", "/nowhere", ""},
}

// TestEveryRouteWantsTheToken: without the cookie, or with a wrong one or
// a wrong bearer token, every route (the event stream too) is 401, with a
// line in the log each, and every answer carries the CSP.
func TestEveryRouteWantsTheToken(t *testing.T) {
	f := newFixture(t, false)
	wrong := []func(*http.Request){
		func(*http.Request) {},
		func(r *http.Request) {
			r.AddCookie(&http.Cookie{Name: "jig_serve_7420", Value: strings.Repeat("0", 64)})
		},
		func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+testToken[:63]) },
		func(r *http.Request) { r.URL.RawQuery = "token=" + testToken[1:] + "x" },
	}
	n := 0
	for _, rt := range routes {
		for _, w := range wrong {
			got := f.do(rt.method, rt.path, rt.body, false, w)
			n++
			if got.Code != http.StatusUnauthorized {
				t.Errorf("%s %s: %d, want 401", rt.method, rt.path, got.Code)
			}
			if got.Header().Get("Content-Security-Policy") != csp {
				t.Errorf("%s %s: no CSP", rt.method, rt.path)
			}
		}
	}
	if lines := strings.Count(f.log.String(), "jig: serve: refused "); lines != n {
		t.Errorf("%d refusals logged, want %d:\n%s", lines, n, f.log.String())
	}
	if _, err := os.Stat(request.Path(f.dir, "s1")); err == nil {
		t.Error("a refused POST wrote a request")
	}
}

// TestTheAddressTokenBecomesACookie: the printed address's token is taken
// once and turned into an HttpOnly, SameSite=Strict cookie; the address is
// then given without it.
func TestTheAddressTokenBecomesACookie(t *testing.T) {
	f := newFixture(t, false)
	w := f.do("GET", "/s/h/s1?token="+testToken+"&x=1", "", false)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/s/h/s1?x=1" {
		t.Fatalf("%d, Location %q", w.Code, w.Header().Get("Location"))
	}
	c := w.Result().Cookies()
	if len(c) != 1 || c[0].Value != testToken || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookies %+v", c)
	}
	if got := f.do("GET", "/api/board", "", true); got.Code != http.StatusOK {
		t.Fatalf("with the cookie: %d", got.Code)
	}
	bearer := f.do("GET", "/api/board", "", false, func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+testToken) })
	if bearer.Code != http.StatusOK {
		t.Fatalf("with a bearer token: %d", bearer.Code)
	}
}

// TestAWrongHostIsRefused: a name a rebinding DNS points at 127.0.0.1 is
// not this server's, whatever the cookie.
func TestAWrongHostIsRefused(t *testing.T) {
	f := newFixture(t, false)
	for _, host := range []string{"evil.example:7420", "127.0.0.1:7421", "127.0.0.1", ""} {
		w := f.do("GET", "/api/board", "", true, func(r *http.Request) { r.Host = host })
		if w.Code != http.StatusMisdirectedRequest {
			t.Errorf("Host %q: %d", host, w.Code)
		}
	}
	for _, host := range []string{"localhost:7420", "LOCALHOST:7420", "[::1]:7420"} {
		if w := f.do("GET", "/api/board", "", true, func(r *http.Request) { r.Host = host }); w.Code != http.StatusOK {
			t.Errorf("Host %q, a loopback name of this address: %d", host, w.Code)
		}
	}
}

// TestACrossOriginPostIsRefused: another page's call (another Origin, none,
// no or a forged CSRF token, a form's body) changes nothing; the page's own
// call writes the request.
func TestACrossOriginPostIsRefused(t *testing.T) {
	f := newFixture(t, false)
	const path, body = "/api/s/h/s1/switch", `{"kind":"tool","name":"bash","on":false}`
	for name, edit := range map[string]func(*http.Request){
		"other origin": func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
		"no origin":    func(r *http.Request) { r.Header.Del("Origin") },
		"no csrf":      func(r *http.Request) { r.Header.Del(csrfHeader) },
		"forged csrf":  func(r *http.Request) { r.Header.Set(csrfHeader, strings.Repeat("a", 32)+".00") },
		"form body":    func(r *http.Request) { r.Header.Set("Content-Type", "application/x-www-form-urlencoded") },
	} {
		if w := f.do("POST", path, body, true, edit); w.Code != http.StatusForbidden {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
	}
	if _, err := os.Stat(request.Path(f.dir, "s1")); err == nil {
		t.Fatal("a refused call wrote a request")
	}
	w := f.do("POST", path, body, true)
	if w.Code != http.StatusAccepted || !strings.Contains(w.Body.String(), `"waiting":true`) {
		t.Fatalf("the page's own call: %d %s", w.Code, w.Body)
	}
	req, err := request.Pending(f.dir, "s1")
	if err != nil || req == nil || req.Tools["bash"] {
		t.Fatalf("request %+v, %v", req, err)
	}
}

// TestReadOnlyRefusesEveryCall and writes nothing.
func TestReadOnlyRefusesEveryCall(t *testing.T) {
	f := newFixture(t, true)
	for _, rt := range routes {
		if rt.method == "POST" {
			if w := f.do(rt.method, rt.path, rt.body, true); w.Code != http.StatusForbidden {
				t.Errorf("%s: %d", rt.path, w.Code)
			}
		}
	}
	if _, err := os.Stat(request.Path(f.dir, "s1")); err == nil {
		t.Fatal("read-only wrote a request")
	}
}

// TestBodiesAreBoundedAndStrict: a body over the bound, unknown fields and
// a bad name are refused whole.
func TestBodiesAreBoundedAndStrict(t *testing.T) {
	f := newFixture(t, false)
	for name, body := range map[string]string{
		"too large":     `{"kind":"tool","name":"` + strings.Repeat("a", maxBody) + `","on":false}`,
		"unknown field": `{"kind":"tool","name":"bash","on":false,"allow":true}`,
		"bad kind":      `{"kind":"call","name":"bash","on":false}`,
		"bad name":      `{"kind":"tool","name":"a b\u001b","on":false}`,
		"not json":      `kind=tool`,
	} {
		if w := f.do("POST", "/api/s/h/s1/switch", body, true); w.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
	}
	if _, err := os.Stat(request.Path(f.dir, "s1")); err == nil {
		t.Fatal("a refused body wrote a request")
	}
}

// TestPagesRunNoInlineScript: the HTML loads its one script from this
// server, holds no inline script or handler, and carries its CSRF token.
func TestPagesRunNoInlineScript(t *testing.T) {
	f := newFixture(t, false)
	for _, path := range []string{"/", "/s/h/s1"} {
		w := f.do("GET", path, "", true)
		html := w.Body.String()
		scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(html, -1)
		if w.Code != 200 || len(scripts) != 1 || scripts[0] != `<script src="/static/app.js" defer>` ||
			regexp.MustCompile(`(?i)\son\w+=`).MatchString(html) || !strings.Contains(html, "</script>") {
			t.Errorf("%s: %d scripts %q", path, w.Code, scripts)
		}
		m := regexp.MustCompile(`name="jig-csrf" content="([^"]+)"`).FindStringSubmatch(html)
		if m == nil || !f.srv.csrfOK(m[1]) {
			t.Errorf("%s: no good CSRF token", path)
		}
	}
}

// TestHostileTextReachesThePageAsCleanData: what a status file or a
// transcript holds is JSON data with <, > and & escaped and control
// characters cleaned, lines kept.
func TestHostileTextReachesThePageAsCleanData(t *testing.T) {
	f := newFixture(t, false)
	for _, path := range []string{"/api/board", "/api/s/h/s1", "/api/s/h/s1/messages"} {
		w := f.do("GET", path, "", true)
		if w.Code != 200 || strings.ContainsAny(w.Body.String(), "<>\x1b") || !strings.Contains(w.Body.String(), `\u003cimg src=x onerror=alert(1)\u003e`) {
			t.Errorf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	var page conversation.Messages
	json.Unmarshal(f.do("GET", "/api/s/h/s1/messages", "", true).Body.Bytes(), &page)
	if len(page.Messages) != 2 || page.Messages[1].Text != "line one\n?[31mred    ok" || page.Messages[1].Calls[0].Result != "a\nb" {
		t.Fatalf("messages %+v", page.Messages)
	}
}

// TestTheEventStreamSaysAChangedRow: a status written after a page
// connected reaches it as one event with the row and the order.
func TestTheEventStreamSaysAChangedRow(t *testing.T) {
	f := newFixture(t, false)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.srv.allowed = allowedHosts(ln.Addr().String())
	f.srv.cookie = "jig_serve_7420" // the fixture's
	hs := httptest.NewUnstartedServer(f.srv.Handler())
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	defer hs.Close()
	req, _ := http.NewRequest("GET", hs.URL+"/api/events", nil)
	req.AddCookie(&http.Cookie{Name: "jig_serve_7420", Value: testToken})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("content type %q", resp.Header.Get("Content-Type"))
	}
	lines := bufio.NewReader(resp.Body)
	if l, _ := lines.ReadString('\n'); l != "retry: 1000\n" {
		t.Fatalf("first line %q", l)
	}
	writeStatus(t, f.dir, "s1", "Model Two")
	for {
		l, err := lines.ReadString('\n')
		if err == io.EOF || err != nil {
			t.Fatalf("stream ended: %v", err)
		}
		if data, ok := strings.CutPrefix(l, "data: "); ok && strings.Contains(data, "Model Two") {
			var c change
			if err := json.Unmarshal([]byte(data), &c); err != nil || len(c.Rows) != 1 || c.Order[0] != "h s1" {
				t.Fatalf("event %s: %v", data, err)
			}
			return
		}
	}
}

func TestLoadTokenKeepsOneToken(t *testing.T) {
	dir := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	a, err := LoadToken(dir)
	if err != nil || !isToken(a) {
		t.Fatalf("%q %v", a, err)
	}
	b, _ := LoadToken(dir)
	fi, err := os.Stat(dir.Path(TokenFile))
	if a != b || err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("second token %q, mode %v %v", b, fi.Mode(), err)
	}
}

func TestCheckAddr(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:7420": true, "[::1]:0": true, "192.168.1.5:80": true,
		"0.0.0.0:7420": false, "[::]:7420": false, ":7420": false, "127.0.0.1": false} {
		if err := CheckAddr(addr); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if !Loopback("localhost:1") || !Loopback("[::1]:1") || Loopback("10.0.0.1:1") {
		t.Error("Loopback")
	}
}

// TestFocusSaysWhenNoPaneCanBeFocused: a session that names no terminal
// cannot be focused, and the page is told why (board.Jump's words).
func TestFocusSaysWhenNoPaneCanBeFocused(t *testing.T) {
	f := newFixture(t, false)
	w := f.do("POST", "/api/s/h/s1/focus", "{}", true)
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "no way to focus its terminal") {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
}

// TestAnUnknownSessionIsNotFound, on every session route.
func TestAnUnknownSessionIsNotFound(t *testing.T) {
	f := newFixture(t, false)
	for _, path := range []string{"/api/s/h/nope", "/api/s/h/nope/messages", "/api/s/other/s1"} {
		if w := f.do("GET", path, "", true); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d %s", path, w.Code, w.Body)
		}
	}
	if w := f.do("POST", "/api/s/h/nope/reload", "{}", true); w.Code != http.StatusNotFound {
		t.Errorf("reload: %d %s", w.Code, w.Body)
	}
}
