package agent

import (
	"fmt"
	"math"

	"kumalak/env"
)

// Calibration maps alpha-beta's score s (stones of store lead for the
// mover, its mobility bonus included) to the mover's chances, by an
// ordered logistic model fitted to game outcomes:
//
//	win  = σ(K·s − Draw)
//	loss = σ(−K·s − Draw)
//	draw = 1 − win − loss
//
// where σ(x) = 1/(1+e^−x). Draw >= 0 is the width of the draw band: 0
// when the game has no draws. The win probability shown, a draw counting
// half, is win + draw/2; the value is win − loss.
type Calibration struct {
	K    float64 // slope, per stone
	Draw float64 // draw band, >= 0
}

// CalibrationOf returns the fitted calibration of a game (its
// env.Facts, in the game's folder: see docs/ENGINE.md,
// "Scores and probabilities", for the data, and re-fit with `go test
// ./agent -run TestCalibrate -calibrate -v`, a minute), false for a game
// without one (its alpha-beta shows no probability). It looks the game
// up: agents call it once, when built, and keep the result.
func CalibrationOf(game string) (Calibration, bool) {
	spec, err := env.Lookup(game)
	if err != nil {
		return Calibration{}, false
	}
	c := spec.Facts.Calibration
	if c.Slope <= 0 {
		return Calibration{}, false
	}
	return Calibration{K: c.Slope, Draw: c.DrawBand}, true
}

// WinProb returns the calibrated chance that the mover wins, a draw
// counting half, of an alpha-beta score (stones of store lead for the
// mover) in game; false when the game has no calibration.
func WinProb(game string, score float64) (p float64, ok bool) {
	c, ok := CalibrationOf(game)
	if !ok {
		return 0, false
	}
	return c.WinProb(score), true
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// WDL returns the chances of a win, a draw and a loss at score s.
func (c Calibration) WDL(s float64) (w, d, l float64) {
	w, l = sigmoid(c.K*s-c.Draw), sigmoid(-c.K*s-c.Draw)
	return w, max(0, 1-w-l), l
}

// WinProb returns win + draw/2 at score s.
func (c Calibration) WinProb(s float64) float64 {
	w, d, _ := c.WDL(s)
	return w + d/2
}

// Score returns the score in [-maxScore, maxScore] whose WinProb is
// nearest p (WinProb rises with the score), by bisection.
func (c Calibration) Score(p, maxScore float64) float64 {
	lo, hi := -maxScore, maxScore
	for range 60 {
		mid := (lo + hi) / 2
		if c.WinProb(mid) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// Sample is one calibration datum: a score for the mover and the game's
// outcome for that mover (1 a win, 0 a draw, -1 a loss).
type Sample struct {
	Score   float64
	Outcome int
}

// logLik returns the mean log-likelihood of the samples under c and its
// gradient in (K, Draw).
func (c Calibration) logLik(samples []Sample) (ll, gk, gd float64) {
	for _, s := range samples {
		a, b := c.K*s.Score-c.Draw, -c.K*s.Score-c.Draw
		w, l := sigmoid(a), sigmoid(b)
		switch s.Outcome {
		case 1: // log σ(a): d/da = 1-σ(a)
			ll += math.Log(max(w, 1e-300))
			gk += (1 - w) * s.Score
			gd -= 1 - w
		case -1:
			ll += math.Log(max(l, 1e-300))
			gk -= (1 - l) * s.Score
			gd -= 1 - l
		default: // log(1-w-l)
			d := max(1-w-l, 1e-300)
			dw, dl := w*(1-w), l*(1-l)
			ll += math.Log(d)
			gk += (-dw*s.Score + dl*s.Score) / d
			gd += (dw + dl) / d
		}
	}
	n := float64(len(samples))
	return ll / n, gk / n, gd / n
}

// Fit returns the calibration of greatest likelihood for the samples, by
// gradient ascent with a backtracking step. It needs wins and losses
// both; with no draws the band goes to 0.
func Fit(samples []Sample) (Calibration, error) {
	var wins, losses int
	for _, s := range samples {
		switch {
		case s.Outcome > 0:
			wins++
		case s.Outcome < 0:
			losses++
		}
	}
	if wins == 0 || losses == 0 {
		return Calibration{}, fmt.Errorf("agent: calibration: %d samples with %d wins and %d losses: need both", len(samples), wins, losses)
	}
	c, step := Calibration{K: 0.1, Draw: 0.1}, 0.1
	ll, gk, gd := c.logLik(samples)
	for range 2000 {
		next := Calibration{K: c.K + step*gk, Draw: max(0, c.Draw+step*gd)}
		nll, ngk, ngd := next.logLik(samples)
		if nll < ll {
			step /= 2
			if step < 1e-9 {
				break
			}
			continue
		}
		done := nll-ll < 1e-12
		c, ll, gk, gd, step = next, nll, ngk, ngd, step*1.5
		if done {
			break
		}
	}
	return c, nil
}
