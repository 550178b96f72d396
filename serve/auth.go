package serve

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"time"

	"jig/render"
	"jig/status"
)

// TokenFile is where the token is kept in the state dir, 0600: a bookmark
// of the printed address keeps working after a restart, and another user
// of the machine cannot read it.
const TokenFile = "serve.token"

const (
	csrfHeader = "X-Jig-Csrf"
	maxBody    = 4 << 10 // bytes of a request's body
)

// failDelay is how long a refused token waits for its answer; refused ones
// are answered one at a time, so guessing goes at that pace.
var failDelay = 400 * time.Millisecond

// csp lets the page run only its own script and style, talk only to this
// server and be framed by nobody: no inline script, no outside source.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// LoadToken is the state dir's token, made (32 random bytes, hex) when
// there is none or it is not one.
func LoadToken(dir *status.Dir) (string, error) {
	if err := dir.Ensure(); err != nil {
		return "", err
	}
	path := dir.Path(TokenFile)
	data, err := status.ReadFile(path, status.NoLinks, 256)
	if err == nil {
		if tok := strings.TrimSpace(string(data)); isToken(tok) {
			return tok, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	tok := hex.EncodeToString(randomKey())
	if err := status.WriteFileAtomic(path, []byte(tok+"\n")); err != nil {
		return "", err
	}
	return tok, nil
}

func isToken(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 64
}

func randomKey() []byte {
	b := make([]byte, 32)
	rand.Read(b) // never fails: it crashes the program rather than return an error
	return b
}

// guard is every route's gate: the Host header, the token (from the cookie,
// or once from the address, which it turns into the cookie), and for a
// state-changing call the same origin and the page's CSRF token. Every
// answer carries the CSP.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		if !s.allowed[strings.ToLower(r.Host)] {
			http.Error(w, "this server answers only to the address it printed", http.StatusMisdirectedRequest)
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet && s.tokenOK(tok) {
			http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.opt.Token, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			r.URL.RawQuery = q.Encode()
			http.Redirect(w, r, r.URL.RequestURI(), http.StatusSeeOther) // the token leaves the address bar
			return
		}
		if !s.tokenOK(s.presented(r)) {
			s.refuse(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := s.sameOrigin(r); err != nil {
				http.Error(w, err.Error(), http.StatusForbidden)
				return
			}
			if s.opt.ReadOnly {
				http.Error(w, "jig serve runs --read-only: it sends no request", http.StatusForbidden)
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// presented is the token a request carries: its cookie, else a bearer
// token (for scripts).
func (s *Server) presented(r *http.Request) string {
	if c, err := r.Cookie(s.cookie); err == nil {
		return c.Value
	}
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return b
	}
	return ""
}

func (s *Server) tokenOK(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), []byte(s.opt.Token)) == 1
}

// refuse answers a missing or wrong token: slowly, one at a time, with a
// line in the log (cleaned: the path is the caller's).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request) {
	select {
	case s.failed <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	time.Sleep(failDelay)
	<-s.failed
	fmt.Fprintf(s.opt.Log, "jig: serve: refused %s %s from %s: no valid token\n",
		render.Clean(r.Method), render.Clean(status.CutTo(r.URL.Path, 200)), render.Clean(r.RemoteAddr))
	http.Error(w, "a valid token is needed: open the address jig serve printed", http.StatusUnauthorized)
}

// sameOrigin refuses a call another page made: its Origin must be this
// server, its CSRF token one this server gave a page, its body JSON.
func (s *Server) sameOrigin(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "http://"+r.Host {
		return fmt.Errorf("cross-origin request refused")
	}
	if !s.csrfOK(r.Header.Get(csrfHeader)) {
		return fmt.Errorf("missing or wrong CSRF token: reload the page")
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("want a JSON body")
	}
	return nil
}

// csrf is a token for one page: a random nonce and its MAC under this
// run's key, so the server keeps no list and a restart voids them all.
func (s *Server) csrf() string {
	nonce := hex.EncodeToString(randomKey()[:16])
	return nonce + "." + s.mac(nonce)
}

func (s *Server) csrfOK(tok string) bool {
	nonce, mac, ok := strings.Cut(tok, ".")
	return ok && len(nonce) == 32 && hmac.Equal([]byte(mac), []byte(s.mac(nonce)))
}

func (s *Server) mac(nonce string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte(nonce))
	return hex.EncodeToString(m.Sum(nil))
}
