package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing/fstest"
	"time"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
)

//go:embed page
var webFiles embed.FS

// Page returns the web page's files (index.html, its scripts, styles and
// icon, and words.js, every language's words from package words): the one
// page that Server serves and kumalak web publishes as a static site (its
// site.js replaced by the site's own).
func Page() fs.FS { return pageFiles() }

var pageFiles = sync.OnceValue(func() fs.FS {
	sub, err := fs.Sub(webFiles, "page")
	if err != nil {
		panic(err) // "page" is a valid path: fs.Sub cannot fail
	}
	files := fstest.MapFS{"words.js": {Data: words.Script(), Mode: 0o444}}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, p)
		files[p] = &fstest.MapFile{Data: b, Mode: 0o444}
		return err
	})
	if err != nil {
		panic(err) // embedded files: reading cannot fail
	}
	return files
})

// Config sets up the HTTP server.
type Config struct {
	Agent      string          // agent spec; required
	Games      []string        // games served; empty = every registered game the agent plays
	Card       json.RawMessage // model card shown by /api/info; may be empty
	Name       string          // shown by /api/info; "" = "kumalak"
	Seed       uint64          // seed of the agents' randomness
	MaxBody    int64           // largest request body, bytes
	Timeout    time.Duration   // time limit of one request, waiting included
	MaxSims    int             // largest sims a request may ask for
	MaxTime    time.Duration   // largest time per move a request may ask for; < Timeout
	MaxMoves   int             // longest move list of a request
	Searches   int             // searches run at once; more requests wait
	IdleAgents int             // agents kept for reuse between requests
}

// DefaultConfig returns the defaults, without an agent.
func DefaultConfig() Config {
	return Config{Name: "kumalak", MaxBody: 64 << 10, Timeout: 30 * time.Second, MaxSims: 200_000,
		MaxTime: 10 * time.Second, MaxMoves: 5000, Searches: runtime.GOMAXPROCS(0), IdleAgents: 8}
}

// Validate names the first bad field.
func (c Config) Validate() error {
	switch {
	case strings.TrimSpace(c.Agent) == "":
		return errors.New("web: Config.Agent is empty")
	case c.MaxBody < 1<<10 || c.MaxBody > 16<<20:
		return fmt.Errorf("web: Config.MaxBody = %d, want in [1 KiB, 16 MiB]", c.MaxBody)
	case c.Timeout <= 0 || c.MaxTime <= 0 || c.MaxTime >= c.Timeout:
		return fmt.Errorf("web: Config.MaxTime = %v, Timeout = %v: want 0 < MaxTime < Timeout", c.MaxTime, c.Timeout)
	case c.MaxSims < 1 || c.MaxSims > agent.MaxSims:
		return fmt.Errorf("web: Config.MaxSims = %d, want in [1, %d]", c.MaxSims, agent.MaxSims)
	case c.MaxTime > agent.MaxTime:
		return fmt.Errorf("web: Config.MaxTime = %v, want at most %v", c.MaxTime, agent.MaxTime)
	case c.MaxMoves < 1:
		return fmt.Errorf("web: Config.MaxMoves = %d, want >= 1", c.MaxMoves)
	case c.Searches < 1 || c.IdleAgents < 0:
		return fmt.Errorf("web: Config.Searches = %d, IdleAgents = %d: want >= 1 and >= 0", c.Searches, c.IdleAgents)
	case len(c.Card) > 0 && !json.Valid(c.Card):
		return errors.New("web: Config.Card is not valid JSON")
	}
	for _, g := range c.Games {
		if _, err := env.Lookup(g); err != nil {
			return fmt.Errorf("web: Config.Games: %w", err)
		}
	}
	return nil
}

// Server serves the JSON API and the web page:
//
//	GET  /            the page (and its app.js and style.css)
//	GET  /api/info    the bot: agent, games, model card, limits
//	POST /api/state   a record (game, position, moves) → the position reached
//	POST /api/move    a record → the bot's move, its evaluation and the new position
//
// It is safe for concurrent use: each search takes an agent of its own
// from a pool, and at most Searches run at once.
type Server struct {
	cfg   Config
	sp    agent.Spec
	games []string
	lims  map[string]agentLimits // by game
	pool  *pool
	sem   chan struct{}
	files http.Handler
}

// NewServer checks the config and builds the agent once for each game, so
// that a bad spec or model fails here rather than on the first request.
func NewServer(cfg Config) (*Server, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sp, err := agent.ParseSpec(cfg.Agent)
	if err != nil {
		return nil, fmt.Errorf("web: server: %w", err)
	}
	s := &Server{cfg: cfg, sp: sp, games: cfg.Games, lims: map[string]agentLimits{}, pool: newPool(sp, cfg.IdleAgents, cfg.Seed),
		sem: make(chan struct{}, cfg.Searches), files: http.FileServerFS(Page())}
	all := len(s.games) == 0 // every game the agent plays: the others are left out
	if all {
		s.games = env.Games()
	}
	var played []string
	var first error
	for _, g := range s.games {
		spec, _ := env.Lookup(g) // Validate checked it
		a, err := s.pool.get(spec, 0)
		if err != nil && all {
			if first == nil {
				first = fmt.Errorf("web: server: %s: %w", g, err)
			}
			continue // e.g. the model agent of a game without a shipped model
		}
		if err != nil {
			_ = s.pool.close() // the build error is the one to report
			return nil, fmt.Errorf("web: server: %s: %w", g, err)
		}
		played = append(played, g)
		if l, ok := a.(agent.Limiter); ok {
			s.lims[g] = agentLimits{base: l.Limits(), max: l.MaxLimits()}
		}
		s.pool.put(spec, 0, a, false)
	}
	if len(played) == 0 {
		_ = s.pool.close()
		return nil, first
	}
	s.games = played
	return s, nil
}

// agentLimits are an agent's own limits and the largest it takes.
type agentLimits struct{ base, max agent.Limits }

// Close closes the pooled agents.
func (s *Server) Close() error { return s.pool.close() }

// ServeHTTP routes a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	switch r.URL.Path {
	case "/api/info":
		s.route(w, r, http.MethodGet, s.handleInfo)
	case "/api/state":
		s.route(w, r, http.MethodPost, s.handleState)
	case "/api/move":
		s.route(w, r, http.MethodPost, s.handleMove)
	default:
		if strings.HasPrefix(r.URL.Path, "/api/") {
			writeError(w, &apiError{http.StatusNotFound, "not_found", "no API " + r.URL.Path + " (see /api/info, /api/state, /api/move)"})
			return
		}
		s.route(w, r, http.MethodGet, s.handleFiles)
	}
}

// route calls h for the method, else answers 405. GET also allows HEAD.
func (s *Server) route(w http.ResponseWriter, r *http.Request, method string, h http.HandlerFunc) {
	if r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead) {
		h(w, r)
		return
	}
	allow := method
	if method == http.MethodGet {
		allow = "GET, HEAD"
	}
	w.Header().Set("Allow", allow)
	writeError(w, &apiError{http.StatusMethodNotAllowed, "method_not_allowed", r.Method + " " + r.URL.Path + ": use " + method})
}

// handleFiles serves the embedded page.
func (s *Server) handleFiles(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'self'; img-src 'self' data:")
	w.Header().Set("Cache-Control", "no-cache")
	s.files.ServeHTTP(w, r)
}

// apiError is an error answer: status, a stable code and a message.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.message }

// badRequest is a 400 answer.
func badRequest(code, format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, code, fmt.Sprintf(format, args...)}
}

// writeError answers {"error": message, "code": code} with the status.
func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, map[string]string{"error": e.message, "code": e.code})
}

// writeJSON answers v as JSON with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(v) // the client went away: nothing to do
}

// decode reads the JSON body into dst: at most MaxBody bytes, one object,
// no unknown fields.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, dst any) *apiError {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return &apiError{http.StatusUnsupportedMediaType, "bad_content_type", "Content-Type " + ct + ": want application/json"}
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(dst)
	if err == nil && dec.More() {
		err = errors.New("data after the JSON object")
	}
	var tooBig *http.MaxBytesError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return &apiError{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body over %d bytes", s.cfg.MaxBody)}
	case errors.As(err, &typ) && typ.Field == "":
		return badRequest("bad_json", "bad JSON: the body is %s, want an object", jsonValue(typ.Value))
	case errors.As(err, &typ):
		return badRequest("bad_json", "bad JSON: field %q is %s, want %s", typ.Field, jsonValue(typ.Value), jsonKind(typ.Type))
	case err != nil:
		return badRequest("bad_json", "bad JSON: %v", err)
	}
	return nil
}

// jsonValue names a JSON value's kind as encoding/json reports it
// ("string", "number", "array", ...), with its article.
func jsonValue(v string) string {
	if strings.HasPrefix(v, "number ") {
		return "the number " + strings.TrimPrefix(v, "number ") // an out-of-range or fractional number
	}
	if v == "array" || v == "object" {
		return "an " + v
	}
	return "a " + v
}

// jsonKind names what a request field of Go type t holds in JSON terms,
// not Go's: a whole number, a list of whole numbers, a string.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(jsonKind(t.Elem()), "a "), "an ") + "s"
	}
	return "an object"
}

// game returns the spec of a requested game, or the default one for "".
func (s *Server) game(name string) (*env.Spec, *apiError) {
	if name == "" {
		name = env.DefaultOf(s.games)
	}
	if !slices.Contains(s.games, name) {
		return nil, badRequest("bad_game", "game %q not served (games: %s)", name, strings.Join(s.games, ", "))
	}
	spec, err := env.Lookup(name)
	if err != nil {
		return nil, badRequest("bad_game", "%v", err)
	}
	return spec, nil
}
