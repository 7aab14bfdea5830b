package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"kumalak/env"
)

// Mux serves several Servers, each playing games of its own, as one API:
// a model plays only its game, so a bot of every game is one Server a
// game. GET /api/info lists every game, each with its own agent and model
// card; POST /api/state and /api/move go to the Server of the request's
// game ("" = togyz when served, else the first game); the page comes from
// the first Server. The static web site (kumalak web) runs one in the
// browser.
type Mux struct {
	servers []*Server
	by      map[string]*Server // by game
	games   []string
}

// NewMux serves the servers; no game may be served by two.
func NewMux(servers ...*Server) (*Mux, error) {
	if len(servers) == 0 {
		return nil, errors.New("web: mux: no server")
	}
	m := &Mux{servers: servers, by: map[string]*Server{}}
	for _, s := range servers {
		for _, g := range s.games {
			if _, dup := m.by[g]; dup {
				return nil, fmt.Errorf("web: mux: game %s served twice", g)
			}
			m.by[g] = s
			m.games = append(m.games, g)
		}
	}
	return m, nil
}

// Close closes every server.
func (m *Mux) Close() error {
	var errs []error
	for _, s := range m.servers {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// ServeHTTP routes a request to the server of its game.
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	first := m.servers[0]
	switch {
	case r.URL.Path == "/api/info" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		w.Header().Set("X-Content-Type-Options", "nosniff")
		writeJSON(w, http.StatusOK, m.info())
	case (r.URL.Path == "/api/state" || r.URL.Path == "/api/move") && r.Method == http.MethodPost:
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, first.cfg.MaxBody))
		if err != nil {
			writeError(w, &apiError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body over %d bytes", first.cfg.MaxBody)})
			return
		}
		s := m.serverFor(body)
		r2 := r.Clone(r.Context())
		r2.Body, r2.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		s.ServeHTTP(w, r2)
	default:
		first.ServeHTTP(w, r)
	}
}

// serverFor returns the server of the body's game; a body that names no
// game served (or is no JSON) goes to the default game's server, which
// answers the error.
func (m *Mux) serverFor(body []byte) *Server {
	var req struct {
		Game string `json:"game"`
	}
	if json.Unmarshal(body, &req) == nil {
		if s, ok := m.by[req.Game]; ok {
			return s
		}
	}
	return m.by[m.defaultGame()]
}

// defaultGame is env.DefaultGame when served, else the first game.
func (m *Mux) defaultGame() string { return env.DefaultOf(m.games) }

// info lists every server's games, each with its agent and card; the
// name, limits and top-level agent and card are the default game's
// server's.
func (m *Mux) info() InfoResponse {
	info := m.by[m.defaultGame()].info()
	info.Games, info.Default = info.Games[:0], m.defaultGame()
	for _, s := range m.servers {
		for _, g := range s.info().Games {
			g.Agent, g.Card = s.cfg.Agent, s.cfg.Card
			info.Games = append(info.Games, g)
		}
	}
	return info
}

// Games returns the games served, in the servers' order.
func (m *Mux) Games() []string { return slices.Clone(m.games) }

// String names the games and their agents, for logs.
func (m *Mux) String() string {
	parts := make([]string, 0, len(m.servers))
	for _, s := range m.servers {
		parts = append(parts, strings.Join(s.games, ",")+"="+s.cfg.Agent)
	}
	return strings.Join(parts, " ")
}
