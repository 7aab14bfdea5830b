package agent

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kumalak/env"
)

// TimeControl is a game's clock: each side gets Base, and Inc after each
// of its moves; with Moves > 0 it gets Base again after every Moves of its
// moves (cutechess's "40/60": 40 moves in 60 s, repeating).
type TimeControl struct {
	Moves int           // moves per period; 0: the whole game (sudden death, with Inc)
	Base  time.Duration // time per period
	Inc   time.Duration // added after each move
}

// ValueError is the error of ParseTimeControl: Reason says what is wrong
// without the package's name.
type ValueError struct{ Reason string }

func (e *ValueError) Error() string { return "agent: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *ValueError) Why() string { return e.Reason }

// ParseClock is ParseTimeControl for an optional clock: "" is none (nil).
func ParseClock(s string) (*TimeControl, error) {
	if s == "" {
		return nil, nil
	}
	tc, err := ParseTimeControl(s)
	if err != nil {
		return nil, err
	}
	return &tc, nil
}

// ParseTimeControl reads "[moves/]base[+inc]", seconds with decimals
// allowed: "60+1", "10+0.1", "40/60", "300".
func ParseTimeControl(s string) (TimeControl, error) {
	var tc TimeControl
	bad := func(why string) (TimeControl, error) {
		return TimeControl{}, &ValueError{Reason: fmt.Sprintf("time control %q: %s (want [moves/]base[+inc] in seconds, e.g. 60+1, 10+0.1, 40/60)", s, why)}
	}
	rest := strings.TrimSpace(s)
	if m, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 1000 {
			return bad("moves per period " + strconv.Quote(m) + " is not a whole number in 1..1000")
		}
		tc.Moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if tc.Base, err = seconds(base); err != nil || tc.Base <= 0 {
		return bad("base " + strconv.Quote(base) + " is not a number of seconds in (0, 86400]")
	}
	if hasInc {
		if tc.Inc, err = seconds(inc); err != nil {
			return bad("increment " + strconv.Quote(inc) + " is not a number of seconds in [0, 86400]")
		}
	}
	return tc, nil
}

// seconds reads a number of seconds in [0, 86400].
func seconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 86400 {
		return 0, fmt.Errorf("bad seconds %q", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// String writes tc as ParseTimeControl reads it.
func (tc TimeControl) String() string {
	s := strconv.FormatFloat(tc.Base.Seconds(), 'f', -1, 64)
	if tc.Moves > 0 {
		s = strconv.Itoa(tc.Moves) + "/" + s
	}
	if tc.Inc > 0 {
		s += "+" + strconv.FormatFloat(tc.Inc.Seconds(), 'f', -1, 64)
	}
	return s
}

// Clock is the state of a game's clocks before a move: each player's time
// left and increment, and the moves to the next period (0: none).
type Clock struct {
	Left      [2]time.Duration // by env.Player
	Inc       [2]time.Duration
	MovesToGo int
	// Lag is each player's time past its budgets, per move, as measured
	// so far (a mean of recent moves): what the search's last slice, the
	// process and a loaded machine add to the time it is given. Budget
	// gives that much less, and plans for it on every move to come.
	Lag [2]time.Duration
}

// Clocked is implemented by agents that manage a clock themselves (an
// external engine, sent wtime btime winc binc): SetClock gives the clock
// before each move, for a game whose ply-th move (from 0) is next.
// Agents without it are given Budget's time as their time per move.
type Clocked interface {
	SetClock(c Clock, ply int)
}

// The time manager's constants: the reserve kept back on the clock, for
// the process and the last slice of a search, and the moves a game is
// planned to have left at the least.
const (
	clockReserve = 30 * time.Millisecond
	minMovesLeft = 20
	moveOverhead = 10 * time.Millisecond // kept back for each move planned: the process's round trip
)

// Budget is the time manager: the time p may spend on its move at ply
// (from 0, counting both sides' moves). Sudden death plans for
// max(20, 50 - moves made) more moves of p; a period for its moves to go.
// Each move gets its share of the time left (less 10 ms and p's Lag for
// each move planned) times a weight (0.6 for the
// first 4 moves of p, where reuse of the opening's tree makes them cheap,
// 1.3 from its 8th to its 30th move, the middlegame, else 1), plus most of
// the increment, less the Lag this move will add; never more than the
// time left less a reserve (30 ms, a twentieth of it and twice the Lag),
// nor, before the period's last two moves, more than a quarter of it. So
// a 10+0.1 game spends about 0.2 s on its first moves, 0.35 s in the
// middlegame, and lives on its increment at the end.
func (c Clock) Budget(p env.Player, ply int) time.Duration {
	left, inc, lag := c.Left[p], c.Inc[p], max(0, c.Lag[p])
	made := ply / 2
	togo := max(minMovesLeft, 50-made)
	if c.MovesToGo > 0 {
		togo = c.MovesToGo
	}
	w := 1.0
	switch {
	case made < 4:
		w = 0.6
	case made >= 8 && made < 30:
		w = 1.3
	}
	plan := max(0, left-time.Duration(togo)*(moveOverhead+lag))
	share := time.Duration(float64(plan)/float64(togo)*w) + inc*9/10 - lag
	if togo > 2 {
		share = min(share, left/4-lag)
	}
	limit := left - clockReserve - left/20 - 2*lag
	if limit < time.Millisecond {
		return max(time.Millisecond, left/4-lag)
	}
	return max(time.Millisecond, min(share, limit))
}

// NextLag is the Lag after a move given budget that took used: a running
// mean of the time past the budget (a quarter of the newest move's), so
// that the budgets follow a machine growing busier or idler.
func NextLag(lag, budget, used time.Duration) time.Duration {
	return lag + (max(0, used-budget)-lag)/4
}
