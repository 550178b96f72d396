package scripted

import (
	"net"
	"net/http"
)

// Server is what every scripted model server is: a Script served over HTTP
// on an ephemeral port of 127.0.0.1. A server embeds it and adds the
// routes of the API it speaks.
type Server[Reply, Request any] struct {
	*Script[Reply, Request]
	Addr string // host:port it listens on

	srv *http.Server
}

// Serve starts listening; routes registers the API's handlers.
func Serve[Reply, Request any](routes func(mux *http.ServeMux)) (*Server[Reply, Request], error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	routes(mux)
	s := &Server[Reply, Request]{Script: New[Reply, Request](), Addr: ln.Addr().String(), srv: &http.Server{Handler: mux}}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and releases any request still waiting.
func (s *Server[Reply, Request]) Close() {
	s.Script.Close()
	s.srv.Close()
}
