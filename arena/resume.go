package arena

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"kumalak/env"
)

// ReadLog reads the JSON lines a match writes (its .jsonl log: one Record
// a line). A last line cut short, as a process killed in the middle of a
// write leaves it, is dropped and reported by torn; any other line that
// is not a record is an error naming the line.
func ReadLog(r io.Reader) (recs []Record, torn bool, err error) {
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, rerr := br.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return recs, false, fmt.Errorf("arena: log: %w", rerr)
		}
		last := rerr != nil // no newline: the end of the file
		if b = bytes.TrimSpace(b); len(b) > 0 {
			var rec Record
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(&rec); derr != nil || dec.More() {
				if last {
					return recs, true, nil
				}
				if derr == nil {
					derr = errors.New("more than one value on the line")
				}
				return recs, false, &LogError{Line: line, Err: derr}
			}
			recs = append(recs, rec)
		}
		if last {
			return recs, false, nil
		}
	}
}

// LogError is ReadLog's error for a line that is not a record.
type LogError struct {
	Line int   // from 1
	Err  error // the JSON decoder's
}

func (e *LogError) Error() string { return fmt.Sprintf("arena: log line %d: %v", e.Line, e.Err) }

func (e *LogError) Unwrap() error { return e.Err }

// ResumeError says why a game of an earlier log cannot be part of this
// match (Match.Done): another game, other agents, another opening or clock.
type ResumeError struct {
	Index  int    // the game's number in the match, from 0
	Reason string // what differs
}

func (e *ResumeError) Error() string {
	return fmt.Sprintf("arena: resume: game %d of the log: %s", e.Index+1, e.Reason)
}

// resume checks the games of m.Done against this match (start, openings,
// agents, clock), counts them into t, and returns which game numbers they
// are, so that the workers skip them.
func (m *Match) resume(start env.State, openings [][]env.Action, t *tally) (map[int]bool, error) {
	done := make(map[int]bool, len(m.Done))
	for i := range m.Done {
		r := &m.Done[i]
		g, err := m.doneGame(r, start, openings)
		if err == nil && done[r.Index] {
			err = &ResumeError{Index: r.Index, Reason: "it is in the log twice"}
		}
		if err != nil {
			return nil, err
		}
		done[r.Index] = true
		t.add(g)
	}
	return done, nil
}

// doneGame checks one game of an earlier log and returns it as a finished
// game of the match.
func (m *Match) doneGame(r *Record, start env.State, openings [][]env.Action) (gameOut, error) {
	bad := func(format string, args ...any) (gameOut, error) {
		return gameOut{}, &ResumeError{Index: r.Index, Reason: fmt.Sprintf(format, args...)}
	}
	if r.Index < 0 || r.Index >= m.Config.Games {
		return bad("its number is out of this match's %d games", m.Config.Games)
	}
	aWhite := r.Index%2 == 0
	white, black, colour := m.A, m.B, "white"
	if !aWhite {
		white, black, colour = m.B, m.A, "black"
	}
	var tc string
	if m.Config.Clock != nil {
		tc = m.Config.Clock.String()
	}
	open := env.Pits(openings[(r.Index/2)%len(openings)])
	switch {
	case r.Game != m.Spec.Name:
		return bad("game %q, this match plays %q", r.Game, m.Spec.Name)
	case r.Pair != r.Index/2:
		return bad("pair %d, want %d", r.Pair, r.Index/2)
	case r.White != white || r.Black != black || r.A != colour:
		return bad("White %q and Black %q (A %s), this match has White %q and Black %q there (A %s)", r.White, r.Black, r.A, white, black, colour)
	case r.Start != start.String():
		return bad("start %q, this match starts from %q", r.Start, start.String())
	case !slices.Equal(r.Opening, open):
		return bad("opening %v, this match's is %v (another --seed, --openings or --openings-plies?)", r.Opening, open)
	case r.TimeControl != tc:
		return bad("time control %q, this match's is %q", r.TimeControl, tc)
	}
	res, err := env.ParseResult(r.Result)
	if err != nil || res == env.Ongoing {
		return bad("result %q is not a finished game's", r.Result)
	}
	g := gameOut{rec: r, score: scoreOf(res, aWhite), aWhite: aWhite}
	switch r.Forfeit {
	case "":
	case "white", "black":
		g.forfeit = forfeitOf(r.Forfeit, aWhite)
	default:
		return bad("forfeit %q: want white, black or none", r.Forfeit)
	}
	return g, nil
}
