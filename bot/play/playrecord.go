package play

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"kumalak/agent"
	"kumalak/bot/words"
	"kumalak/env"
)

// gameRecord returns the game so far as a game record: tags Event, Site, Date,
// White and Black (the person is "you", the bot its name), the start, the
// moves and the result ("*" while the game goes on).
func (s *session) gameRecord() *env.GameRecord {
	now := s.cfg.Now
	if now == nil {
		now = time.Now
	}
	g := &env.GameRecord{Spec: s.cfg.Spec, Start: env.Clone(s.hist[0]), Moves: append([]env.Action(nil), s.moves...), Result: s.cur().Result()}
	white, black := "you", s.cfg.Name
	if s.cfg.Human == env.Black {
		white, black = black, white
	}
	for _, t := range []env.Tag{{Name: "Event", Value: "kumalak play"}, {Name: "Site", Value: "kumalak"},
		{Name: "Date", Value: now().Format("2006.01.02")}, {Name: "White", Value: white}, {Name: "Black", Value: black}} {
		g.SetTag(t.Name, t.Value)
	}
	return g
}

// save writes the game so far to path as a record file.
func (s *session) save(path string) {
	text, err := s.gameRecord().Text()
	if err == nil {
		err = os.WriteFile(path, []byte(text), 0o644)
	}
	if err != nil {
		s.say("play.cantsave", err.Error())
		return
	}
	s.say("play.saved", len(s.moves), path)
}

// load goes on from a game of a record file: "FILE" for its first, "FILE
// N" for its N-th. The game must be of this session's game; its moves are
// replayed, with whoever's turn it is next.
func (s *session) load(arg string) {
	path, n := arg, 1
	if i := strings.LastIndexByte(arg, ' '); i >= 0 {
		if k, err := strconv.Atoi(arg[i+1:]); err == nil {
			path, n = strings.TrimSpace(arg[:i]), k
		}
	}
	g, err := readGame(s.w, path, n, s.cfg.Spec)
	if err != nil {
		s.say("play.cantload", err.Error())
		return
	}
	st := g.StartState()
	s.hist, s.moves, s.movers = append(s.hist[:0], env.Clone(st)), s.moves[:0], s.movers[:0]
	s.announced = false
	if r, ok := s.cfg.Agent.(agent.Resetter); ok {
		r.Reset()
	}
	for _, a := range g.Moves {
		s.play(a)
	}
	if g.Result != env.Ongoing && s.cur().Result() == env.Ongoing {
		s.say("play.loaded.ended", len(g.Moves), path, n, g.Result.String())
	} else {
		s.say("play.loaded", len(g.Moves), path, n)
	}
	s.show()
}

// readGame reads the n-th game (from 1) of the record file at path, which
// must be of spec's game.
func readGame(w *words.Printer, path string, n int, spec *env.Spec) (*env.GameRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	games, err := env.ReadRecords(bytes.NewReader(data), spec)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > len(games) {
		return nil, errors.New(w.T("play.nogame", path, len(games), n))
	}
	g := games[n-1]
	if g.Spec != spec {
		return nil, errors.New(w.T("play.othergame", n, path, g.Spec.Name, spec.Name))
	}
	return g, nil
}
