package arena

import (
	"fmt"
	"io"

	"kumalak/env"
	"kumalak/solve"
)

// JudgeLog is a Records writer that judges the moves of every game after
// its opening (solve.Judge.Game) into a tally per player, the agent spec
// that played them, then passes the game on to the inner writer: whole to a GameLog
// (Logs), as a line of JSON to another writer, nowhere when nil. The match
// gives it one game at a time; it is not safe for concurrent use.
type JudgeLog struct {
	inner   io.Writer
	spec    *env.Spec
	judge   *solve.Judge
	names   []string // the players in order of first appearance
	tallies map[string]*solve.Tally
}

// NewJudgeLog returns a judge of spec's games with j, its players listed
// in order: players first, then the others as they appear.
func NewJudgeLog(inner io.Writer, spec *env.Spec, j *solve.Judge, players ...string) *JudgeLog {
	l := &JudgeLog{inner: inner, spec: spec, judge: j, tallies: map[string]*solve.Tally{}}
	for _, p := range players {
		l.Tally(p)
	}
	return l
}

// Tally returns the tally of player's moves, empty before its first game.
func (l *JudgeLog) Tally(player string) *solve.Tally {
	t, ok := l.tallies[player]
	if !ok {
		t = &solve.Tally{}
		l.tallies[player] = t
		l.names = append(l.names, player)
	}
	return t
}

// PlayerTally is one player's tally with its rates.
type PlayerTally struct {
	Player string `json:"player"`
	solve.Summary
}

// Players returns each player's tally in order.
func (l *JudgeLog) Players() []PlayerTally {
	out := make([]PlayerTally, len(l.names))
	for i, n := range l.names {
		out[i] = PlayerTally{Player: n, Summary: l.tallies[n].Summary()}
	}
	return out
}

// Write passes p on to the inner writer.
func (l *JudgeLog) Write(p []byte) (int, error) {
	if l.inner == nil {
		return len(p), nil
	}
	return l.inner.Write(p)
}

// LogGame judges r's moves after its opening into the tallies of its white
// and black players, then passes r on.
func (l *JudgeLog) LogGame(r *Record) error {
	st, moves, err := r.Replay(l.spec)
	if err != nil {
		return err
	}
	var t [2]solve.Tally
	if err := l.judge.Game(st, moves, &t); err != nil {
		return fmt.Errorf("arena: judge: game %d: %w", r.Index+1, err)
	}
	l.Tally(r.White).Merge(&t[env.White])
	l.Tally(r.Black).Merge(&t[env.Black])
	if l.inner == nil {
		return nil
	}
	return writeRecord(l.inner, r)
}

// JudgeReport is a judge's findings, as arena writes them beside a
// match's logs and analyze prints them: the judge's setting and a tally
// per player.
type JudgeReport struct {
	Tablebase string        `json:"tablebase"`             // "" for the solver alone
	Stones    int           `json:"stones"`                // the tablebase's
	Extra     int           `json:"extra_stones"`          // judged above it by the solver (on the board in all without it)
	Time      string        `json:"solver_time,omitempty"` // the solver's time per position, with extra stones
	Players   []PlayerTally `json:"players"`
}

// NewJudgeReport returns the report of j's tallies of players.
func NewJudgeReport(j *solve.Judge, players []PlayerTally) JudgeReport {
	c := j.Config()
	r := JudgeReport{Extra: c.Extra, Players: players}
	if c.Tablebase != nil {
		r.Tablebase, r.Stones = c.Tablebase.Dir(), c.Tablebase.Stones()
	}
	if c.Extra > 0 {
		r.Time = c.Limit.String()
	}
	return r
}

// OpenJudge returns the judge of the commands' --judge DIR (a classic
// mangala tablebase, and --judge-extra stones above it by the solver) or,
// without DIR, of --judge-extra alone (the solver, positions of up to
// cfg.Extra stones on the board of a game it plays: solve.OpenJudge); nil
// without either. Its errors name the flag.
func OpenJudge(game *env.Spec, dir string, cfg solve.JudgeConfig) (*solve.Judge, error) {
	flag := "--judge"
	switch {
	case dir == "" && cfg.Extra == 0:
		return nil, nil
	case cfg.Extra > 0 && cfg.Limit <= 0:
		return nil, fmt.Errorf("--judge-time %v: want a time > 0 for the solver with --judge-extra", cfg.Limit)
	case dir == "":
		flag = "--judge-extra"
	}
	j, err := solve.OpenJudge(game.Name, dir, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return j, nil
}

// Report returns the report of the log's tallies, its players in order.
func (l *JudgeLog) Report() JudgeReport { return NewJudgeReport(l.judge, l.Players()) }

// JudgeGame judges every move of game with j: the report's players are
// "white" and "black".
func JudgeGame(j *solve.Judge, game *env.GameRecord) (JudgeReport, error) {
	var t [2]solve.Tally
	if err := j.Game(game.StartState(), game.Moves, &t); err != nil {
		return JudgeReport{}, fmt.Errorf("arena: judge: %w", err)
	}
	return NewJudgeReport(j, []PlayerTally{
		{Player: "white", Summary: t[env.White].Summary()},
		{Player: "black", Summary: t[env.Black].Summary()},
	}), nil
}
