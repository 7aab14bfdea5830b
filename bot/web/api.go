package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
)

// StateRequest is a game record: the body of POST /api/state, and the
// first fields of POST /api/move.
type StateRequest struct {
	Game     string `json:"game"`     // "togyz", "mangala" or "mangala-kale"; "" = the default game
	Position string `json:"position"` // docs/RULES.md position string; "" or "start" = the start
	Moves    []int  `json:"moves"`    // pit numbers played from the position
	// Record, instead of Moves, gives one game as a record (docs/RECORDS.md):
	// moves in the game's notation (togyz "1. 76 98 2. 36x"; pit numbers for
	// the mangalas) after optional tags ([Event "..."]). Its Game and
	// Position tags, when given, name the game and the start in place of
	// Game and Position; the answer's game and start say which.
	Record string `json:"record,omitempty"`
}

// MoveRequest is the body of POST /api/move: a record and optional limits
// for the search (0 = the bot's own).
type MoveRequest struct {
	Game     string `json:"game"`
	Position string `json:"position"`
	Moves    []int  `json:"moves"`
	Sims     int    `json:"sims"`
	TimeMS   int    `json:"time_ms"`
	Depth    int    `json:"depth"`
	// Level plays the model bot at a strength level, 1..InfoResponse.Levels
	// (docs/PLAYING.md, Levels); 0: the bot's own. A level sets the search: sims
	// and depth are refused beside it, time_ms still caps it.
	Level int `json:"level"`
}

// MoveStat is one root move of the bot's search.
type MoveStat struct {
	Pit   int     `json:"pit"`
	Share float32 `json:"share"` // fraction of the search (MCTS visits; alpha-beta: 1 for the best)
	Value float32 `json:"value"` // value for the mover, -1..1
}

// MoveResponse is the answer of POST /api/move.
type MoveResponse struct {
	Move    int     `json:"move"`     // the pit the bot plays
	Value   float32 `json:"value"`    // expected outcome for the bot, -1..1
	WinProb float32 `json:"win_prob"` // the bot's chance, a draw counting half (calibrated: docs/ENGINE.md)
	// Evaluated is false for an agent that gives no evaluation (random,
	// greedy): then Value and WinProb mean nothing and are not shown.
	Evaluated bool       `json:"evaluated"`
	Score     float32    `json:"score"`          // in stones of store lead (docs/ENGINE.md, "Scores and probabilities")
	Mate      int        `json:"mate,omitempty"` // a proven win in Mate plies, or a loss in -Mate
	WDL       []float32  `json:"wdl,omitempty"`  // win, draw, loss chances, when the agent gives them
	Depth     int        `json:"depth,omitempty"`
	Nodes     int64      `json:"nodes"`
	PV        []int      `json:"pv"`    // the line the bot expects, from its move, as pit numbers
	Line      string     `json:"line"`  // the same line in the game's notation (togyz "76x 98 ...")
	Moves     []MoveStat `json:"moves"` // per-move figures, best first
	TimeMS    int64      `json:"time_ms"`
	Agent     string     `json:"agent"`             // the spec that searched
	Ignored   []string   `json:"ignored,omitempty"` // limits the agent has no key for, e.g. sims for ab
	Before    string     `json:"before"`            // the position searched
	State     View       `json:"state"`             // the position after the move; its Moves include it
}

// GameInfo describes one game served.
type GameInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Pits  int    `json:"pits"`
	Start string `json:"start"` // the start position string
	// Agent and Card are the game's own bot when a Mux serves each game
	// with a Server of its own (a model plays one game); else "" and none.
	Agent string          `json:"agent,omitempty"`
	Card  json.RawMessage `json:"card,omitempty"`
	// LevelElo are the measured ratings of the levels on the game's Elo
	// scale, level 1 first, when the bot plays levels and they were
	// measured (docs/PLAYING.md, Levels); LevelAnchor is the player rated 0.
	LevelElo    []int  `json:"level_elo,omitempty"`
	LevelAnchor string `json:"level_anchor,omitempty"`
	// Names is the game's name in each language of the page
	// (env.Facts.Names: "kk", "ru", "tr", "en"); Words are the English
	// words of its parts (env.Facts.Words), which the page translates
	// (bot/words: "word.kazan").
	Names map[string]string `json:"names"`
	Words GameWords         `json:"words"`
	// Notation says the game writes records in a notation of its own
	// (env.Spec.Notation: togyz's "1. 76 98 2. 36x 45"), not in pit
	// numbers; Example is a short record of the game in it, for the page's
	// record box. Alternate says turns always alternate (no extra turn,
	// env.Facts.ExtraTurn): the page lists the moves in numbered pairs,
	// else one a line with the mover's name. The page compares no game
	// names: what differs between games comes from here and from the View.
	Notation  bool   `json:"notation"`
	Example   string `json:"example"`
	Alternate bool   `json:"alternate"`
}

// GameWords are a game's words for its store and special pit, "" for a
// game without specials.
type GameWords struct {
	Store   string `json:"store"`
	Special string `json:"special,omitempty"`
}

// InfoResponse is the answer of GET /api/info.
type InfoResponse struct {
	Name  string     `json:"name"`
	Agent string     `json:"agent"`
	Games []GameInfo `json:"games"`
	// Default is the game the page opens first (env.DefaultOf).
	Default string          `json:"default"`
	Card    json.RawMessage `json:"card,omitempty"`
	// Levels is the strongest strength level a move request may ask for
	// (MoveRequest.Level): agent.MaxLevel for the model bot, else 0.
	Levels int `json:"levels"`
	Limits struct {
		MaxSims   int   `json:"max_sims"`
		MaxTimeMS int64 `json:"max_time_ms"`
		MaxDepth  int   `json:"max_depth"` // 0 when the agent takes no depth
		TimeoutMS int64 `json:"timeout_ms"`
		MaxBody   int64 `json:"max_body"`
		MaxMoves  int   `json:"max_moves"`
	} `json:"limits"`
}

func (s *Server) handleInfo(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.info())
}

// info describes the server: its bot, games and limits.
func (s *Server) info() InfoResponse {
	var info InfoResponse
	info.Name, info.Agent, info.Card = s.cfg.Name, s.cfg.Agent, s.cfg.Card
	for _, g := range s.games {
		info.Games = append(info.Games, s.gameInfo(g))
	}
	info.Default, info.Levels = env.DefaultOf(s.games), s.levels()
	info.Limits.MaxSims, info.Limits.MaxTimeMS = s.cfg.MaxSims, s.cfg.MaxTime.Milliseconds()
	info.Limits.MaxDepth = s.lims[s.games[0]].max.Depth
	info.Limits.TimeoutMS, info.Limits.MaxBody = s.cfg.Timeout.Milliseconds(), s.cfg.MaxBody
	info.Limits.MaxMoves = s.cfg.MaxMoves
	return info
}

// gameInfo describes game g, one of the server's.
func (s *Server) gameInfo(g string) GameInfo {
	spec, _ := env.Lookup(g)
	w := env.WordsOf(spec.New())
	gi := GameInfo{Name: g, Title: spec.Title, Pits: spec.Pits, Start: spec.New().String(),
		Names: map[string]string{}, Words: GameWords{Store: w.Store, Special: w.Special},
		Notation: spec.Notation != nil, Example: exampleRecord(spec), Alternate: !spec.Facts.ExtraTurn}
	for _, l := range env.Langs {
		gi.Names[l] = spec.Facts.Names.In(l)
	}
	if sc, ok := agent.LevelScaleOf(g); ok && s.levels() > 0 {
		for _, e := range sc.Elo {
			gi.LevelElo = append(gi.LevelElo, int(math.Round(e)))
		}
		gi.LevelAnchor = sc.Anchor
	}
	return gi
}

// exampleRecord is a short record of the game in its notation: four plies
// from the start, the i-th (from 0) the legal move at (2+3i) mod the
// number of legal moves, for variety ("" should the notation refuse them:
// TestExampleRecords).
func exampleRecord(spec *env.Spec) string {
	start := spec.New()
	st := env.Clone(start)
	var moves, legal []env.Action
	for i := range 4 {
		if legal = st.Legal(legal[:0]); len(legal) == 0 {
			break
		}
		a := legal[(2+3*i)%len(legal)]
		st.Apply(a)
		moves = append(moves, a)
	}
	text, err := spec.FormatMoves(start, moves)
	if err != nil {
		return ""
	}
	return text
}

// levels returns the strongest level the bot plays: agent.MaxLevel for
// the model bot, else 0.
func (s *Server) levels() int {
	if s.sp.Kind == "model" {
		return agent.MaxLevel
	}
	return 0
}

func (s *Server) handleState(w http.ResponseWriter, r *http.Request) {
	var req StateRequest
	if e := s.decode(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	start, st, moves, e := s.replay(req)
	if e != nil {
		writeError(w, e)
		return
	}
	v, err := NewViewFrom(start, st, moves)
	if err != nil {
		writeError(w, &apiError{http.StatusInternalServerError, "internal", err.Error()})
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// replay checks a record and returns its start, its position and its
// moves.
func (s *Server) replay(req StateRequest) (env.State, env.State, []int, *apiError) {
	spec, e := s.game(req.Game)
	if e != nil {
		return nil, nil, nil, e
	}
	start, err := spec.Start(req.Position)
	if err != nil {
		return nil, nil, nil, badRequest("bad_position", "%v", err)
	}
	moves := req.Moves
	if strings.TrimSpace(req.Record) != "" {
		if len(moves) > 0 {
			return nil, nil, nil, badRequest("bad_record", "give moves or record, not both")
		}
		if start, moves, e = s.readRecord(start, req.Record); e != nil {
			return nil, nil, nil, e
		}
	}
	if len(moves) > s.cfg.MaxMoves {
		return nil, nil, nil, badRequest("too_many_moves", "%d moves, limit %d", len(moves), s.cfg.MaxMoves)
	}
	st := env.Clone(start)
	if err := env.Replay(st, moves); err != nil {
		return nil, nil, nil, badRequest("illegal_move", "%v", err)
	}
	return start, st, moves, nil
}

// readRecord reads a record of one game (docs/RECORDS.md, env.RecordReader)
// and returns its start and moves: its Game and Position tags, when given,
// name its game and start, else start's.
func (s *Server) readRecord(start env.State, text string) (env.State, []int, *apiError) {
	rr := env.NewRecordReaderFrom(strings.NewReader(text), start)
	g, err := rr.Next()
	if errors.Is(err, io.EOF) || err == nil && len(g.Moves) == 0 && len(g.Tags) == 0 {
		// Nothing but move numbers or a result ("1.", "*") is no game either.
		return nil, nil, badRequest("bad_record", "no moves and no tags")
	}
	if err != nil {
		return nil, nil, badRequest("bad_record", "%v", err)
	}
	if _, err := rr.Next(); !errors.Is(err, io.EOF) {
		return nil, nil, badRequest("bad_record", "give one game, not several")
	}
	if _, e := s.game(g.Spec.Name); e != nil {
		return nil, nil, e
	}
	return g.StartState(), env.Pits(g.Moves), nil
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	var req MoveRequest
	if e := s.decode(w, r, &req); e != nil {
		writeError(w, e)
		return
	}
	start, st, moves, e := s.replay(StateRequest{Game: req.Game, Position: req.Position, Moves: req.Moves})
	if e == nil {
		e = s.checkMoveRequest(req, st)
	}
	if e != nil {
		writeError(w, e)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
	defer cancel()
	resp, e := s.search(ctx, start, st, moves, req)
	if e != nil {
		writeError(w, e)
		return
	}
	writeJSON(w, http.StatusOK, resp)
}

// checkMoveRequest refuses limits out of range and a finished game. A
// depth is checked against the agent's own range (alpha-beta's MaxDepth
// for an agent without depth, which ignores it).
func (s *Server) checkMoveRequest(req MoveRequest, st env.State) *apiError {
	maxDepth := s.lims[st.Spec().Name].max.Depth
	if maxDepth == 0 {
		maxDepth = agent.MaxDepth
	}
	switch {
	case req.Sims < 0 || req.Sims > s.cfg.MaxSims:
		return badRequest("bad_limit", "sims %d out of range 0..%d", req.Sims, s.cfg.MaxSims)
	case req.TimeMS < 0 || int64(req.TimeMS) > s.cfg.MaxTime.Milliseconds():
		return badRequest("bad_limit", "time_ms %d out of range 0..%d", req.TimeMS, s.cfg.MaxTime.Milliseconds())
	case req.Depth < 0 || req.Depth > maxDepth:
		return badRequest("bad_limit", "depth %d out of range 0..%d", req.Depth, maxDepth)
	case req.Level != 0 && s.levels() == 0:
		return badRequest("bad_level", "level %d: the bot %s plays no levels (only the model bot does)", req.Level, s.sp)
	case req.Level < 0 || req.Level > s.levels():
		return badRequest("bad_level", "level %d out of range 0..%d", req.Level, s.levels())
	case req.Level != 0 && (req.Sims != 0 || req.Depth != 0):
		return badRequest("bad_level", "level %d sets the search: give no sims or depth beside it", req.Level)
	case st.Result() != env.Ongoing:
		return &apiError{http.StatusConflict, "game_over", "the game is over (" + st.Result().String() + ")"}
	}
	return nil
}

// search waits for a search slot, borrows an agent, bounds it by the
// request's limits in the dimensions it has (the others are reported as
// ignored, and leave its own limits alone) and plays its move.
func (s *Server) search(ctx context.Context, start, st env.State, moves []int, req MoveRequest) (*MoveResponse, *apiError) {
	lims := s.lims[st.Spec().Name]
	want := agent.Limits{Sims: req.Sims, Time: time.Duration(req.TimeMS) * time.Millisecond, Depth: req.Depth}
	lim, dropped := lims.base.Replace(want, lims.max)
	spec := s.sp
	if !lims.max.IsZero() {
		spec.Limits = lim
	}
	if req.Level != 0 { // the level's own sims, and the time asked for
		lim, dropped = agent.Limits{Time: want.Time}, agent.Limits{}
		spec.Limits = lim
		var err error
		if spec, err = levelSpec(spec, req.Level); err != nil {
			return nil, badRequest("bad_level", "%v", err)
		}
	}
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		return nil, &apiError{http.StatusServiceUnavailable, "busy", "the server is busy: try again"}
	}
	ag, err := s.pool.get(st.Spec(), req.Level)
	if err != nil {
		return nil, &apiError{http.StatusInternalServerError, "internal", err.Error()}
	}
	if l, ok := ag.(agent.Limiter); ok {
		if err := l.SetLimits(lim); err != nil {
			s.pool.put(st.Spec(), req.Level, ag, false)
			return nil, badRequest("bad_limit", "%v", err)
		}
	}
	began := time.Now()
	a, err := ag.Move(ctx, st)
	var resp *MoveResponse
	var e *apiError
	if err == nil { // the analysis is the agent's: read it before another request may
		resp, e = s.answer(start, st, moves, a, ag, spec.String(), time.Since(began))
	}
	s.pool.put(st.Spec(), req.Level, ag, err != nil)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, &apiError{http.StatusServiceUnavailable, "timeout", "the search took longer than " + s.cfg.Timeout.String()}
	case err != nil:
		return nil, &apiError{http.StatusInternalServerError, "search_failed", err.Error()}
	case e != nil:
		return nil, e
	}
	resp.Ignored = dropped.Names()
	return resp, nil
}

// answer builds the response for move a played from st.
func (s *Server) answer(start, st env.State, moves []int, a env.Action, ag agent.Agent, spec string, took time.Duration) (*MoveResponse, *apiError) {
	resp := &MoveResponse{Move: a.Pit(), WinProb: 0.5, PV: []int{a.Pit()}, Moves: []MoveStat{}, TimeMS: took.Milliseconds(),
		Agent: spec, Before: st.String()}
	if an, ok := ag.(agent.Analyzer); ok {
		r := an.Analysis()
		resp.Value, resp.WinProb, resp.Depth, resp.Nodes = r.Value, r.WinProb, r.Depth, r.Nodes
		resp.Evaluated, resp.Score, resp.Mate = true, r.Score, r.Mate
		if r.HasWDL {
			resp.WDL = r.WDL[:]
		}
		if len(r.PV) > 0 && r.PV[0] == a {
			resp.PV = resp.PV[:0]
			for _, m := range r.PV {
				resp.PV = append(resp.PV, m.Pit())
			}
		}
		for _, m := range r.Moves {
			resp.Moves = append(resp.Moves, MoveStat{Pit: m.Action.Pit(), Share: m.Share, Value: m.Value})
		}
	}
	line := make([]env.Action, len(resp.PV))
	for i, p := range resp.PV {
		line[i] = env.Action(p - 1)
	}
	resp.Line = words.Moves(st, line)
	next := env.Clone(st)
	next.Apply(a)
	v, err := NewViewFrom(start, next, append(append([]int{}, moves...), a.Pit()))
	if err != nil {
		return nil, &apiError{http.StatusInternalServerError, "internal", err.Error()}
	}
	resp.State = v
	return resp, nil
}
