package rating

import "fmt"

// EloNoBound stands for an unbounded side of an Elo interval (a match
// won or lost in every game) in a card and in metrics.jsonl, since JSON
// holds no infinity: ClampElo writes it, EloText reads it.
const EloNoBound = 9999

// ClampElo returns x within ±EloNoBound (an infinite bound becomes
// ±EloNoBound), and 0 for NaN.
func ClampElo(x float64) float64 {
	switch {
	case x != x:
		return 0
	case x > EloNoBound:
		return EloNoBound
	case x < -EloNoBound:
		return -EloNoBound
	}
	return x
}

// Match is one match from the network's view: its games, its results and
// the Elo difference they imply, with a 95% interval (±EloNoBound stands
// for an unbounded side).
type Match struct {
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Draws  int     `json:"draws"`
	Losses int     `json:"losses"`
	Score  float64 `json:"score"` // (wins + draws/2) / games
	Elo    float64 `json:"elo"`
	EloLo  float64 `json:"elo_lo"`
	EloHi  float64 `json:"elo_hi"`
	// Sims is the network's simulations per move in the match; 0: the
	// run's evaluation setting (eval.sims).
	Sims int `json:"sims,omitempty"`
}

// MatchOf is the match of counts c (from the network's view), with the
// Elo difference e they imply.
func MatchOf(c Counts, e Elo) Match {
	return Match{Games: c.Games(), Wins: c.W, Draws: c.D, Losses: c.L, Score: c.Score(), Elo: e.Diff, EloLo: e.Lo, EloHi: e.Hi}
}

// Clamped returns m with its Elo and its bounds within ±EloNoBound
// (ClampElo): what JSON, which holds no infinity, can hold.
func (m Match) Clamped() Match {
	m.Elo, m.EloLo, m.EloHi = ClampElo(m.Elo), ClampElo(m.EloLo), ClampElo(m.EloHi)
	return m
}

// ClampMatches returns a copy of ms with every match Clamped (ms itself
// when it is empty).
func ClampMatches(ms map[string]Match) map[string]Match {
	if len(ms) == 0 {
		return ms
	}
	out := make(map[string]Match, len(ms))
	for k, m := range ms {
		out[k] = m.Clamped()
	}
	return out
}

// Rating is an Elo on the anchors' scale (Anchors.Zero = 0).
type Rating struct {
	Elo float64 `json:"elo"`
	Err float64 `json:"err"` // half-width of the 95% interval
}

// EloText writes the match's Elo and its interval, "+120 [+80, +160]",
// with an unbounded side (EloNoBound) as +inf or -inf.
func (e Match) EloText() string {
	f := func(x float64) string {
		switch {
		case x >= EloNoBound:
			return "+inf"
		case x <= -EloNoBound:
			return "-inf"
		case x == 0:
			return "0"
		}
		return fmt.Sprintf("%+.0f", x)
	}
	return fmt.Sprintf("%s [%s, %s]", f(e.Elo), f(e.EloLo), f(e.EloHi))
}
