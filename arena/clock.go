package arena

import (
	"fmt"
	"time"

	"kumalak/agent"
	"kumalak/env"
)

// gameClock runs a game's clocks under a time control: the arena measures
// each move from the agent's call to its answer, the process's round trip
// included, as a tournament's clock would.
type gameClock struct {
	tc   agent.TimeControl
	left [2]time.Duration
	made [2]int // moves each side made
	// given is the budget of each side's move in progress (0: it manages
	// its own clock), lag each side's time past its budgets (agent.Clock.Lag).
	given, lag [2]time.Duration
}

func newGameClock(tc agent.TimeControl) *gameClock {
	return &gameClock{tc: tc, left: [2]time.Duration{tc.Base, tc.Base}}
}

// clock returns the state of the clocks before p's move.
func (c *gameClock) clock(p env.Player) agent.Clock {
	k := agent.Clock{Left: c.left, Inc: [2]time.Duration{c.tc.Inc, c.tc.Inc}, Lag: c.lag}
	if c.tc.Moves > 0 {
		k.MovesToGo = c.tc.Moves - c.made[p]%c.tc.Moves
	}
	return k
}

// give tells ag its clock before p's move at ply: an agent that manages
// a clock (agent.Clocked) gets the clock, one with a time limit the time
// manager's budget (agent.Clock.Budget) as its only limit.
func (c *gameClock) give(ag agent.Agent, p env.Player, ply int) error {
	if g, ok := ag.(*guard); ok {
		ag = g.ag
	}
	c.given[p] = 0
	if cl, ok := ag.(agent.Clocked); ok {
		cl.SetClock(c.clock(p), ply)
		return nil
	}
	if l, ok := ag.(agent.Limiter); ok && l.MaxLimits().Time > 0 {
		return l.SetLimits(agent.Limits{Time: c.budget(p, ply)})
	}
	return nil
}

// budget is the time manager's budget of p's move at ply, remembered so
// that spend can measure the time taken past it.
func (c *gameClock) budget(p env.Player, ply int) time.Duration {
	c.given[p] = c.clock(p).Budget(p, ply)
	return c.given[p]
}

// spend charges p's move of used, and reports the flag's fall: the time
// used beyond what was left. Otherwise p gets its increment, and a new
// period after its last move of one; a move given a budget updates p's lag.
func (c *gameClock) spend(p env.Player, used time.Duration) (over time.Duration, fell bool) {
	if used > c.left[p] {
		return used - c.left[p], true
	}
	if c.given[p] > 0 {
		c.lag[p] = agent.NextLag(c.lag[p], c.given[p], used)
	}
	c.left[p] += c.tc.Inc - used
	c.made[p]++
	if c.tc.Moves > 0 && c.made[p]%c.tc.Moves == 0 {
		c.left[p] += c.tc.Base
	}
	return 0, false
}

// flagReason is the Termination of a game lost on time.
func flagReason(p env.Player, spec string, used, over time.Duration) string {
	colour := "white"
	if p == env.Black {
		colour = "black"
	}
	return fmt.Sprintf("time forfeit: %s (%s) took %.3f s, %.3f s more than its clock had", colour, spec, used.Seconds(), over.Seconds())
}
