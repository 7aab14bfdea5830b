package analysis

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot draws white's chance to win over the game (white's value when the
// analysis has no probabilities), the mistakes and blunders as points,
// into an image at path, its format by the file's extension (PNG, SVG, PDF,
// ...: gonum's plot.Save).
func (an *GameAnalysis) Plot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s, judged by %s", an.Game, an.Agent)
	p.X.Label.Text = "ply"
	p.X.Tick.Marker = plyTicks{}
	p.Y.Label.Text = "white's chance to win"
	p.Y.Min, p.Y.Max = 0, 1
	if !an.Probabilities {
		p.Y.Label.Text = "white's value"
		p.Y.Min = -1
	}
	line, marked := plotter.XYs{}, plotter.XYs{}
	for _, m := range an.Moves {
		y := whiteSide(an, m.Before, m.Mover)
		line = append(line, plotter.XY{X: float64(m.Ply - 1), Y: y})
		if m.Mark >= Mistake {
			marked = append(marked, plotter.XY{X: float64(m.Ply), Y: whiteSide(an, m.After, m.Mover)})
		}
	}
	if n := len(an.Moves); n > 0 {
		last := an.Moves[n-1]
		line = append(line, plotter.XY{X: float64(n), Y: whiteSide(an, last.After, last.Mover)})
	}
	l, err := plotter.NewLine(line)
	if err != nil {
		return fmt.Errorf("analysis: plot: %w", err)
	}
	l.Color = color.RGBA{B: 200, A: 255}
	p.Add(plotter.NewGrid(), l)
	if len(marked) > 0 {
		s, err := plotter.NewScatter(marked)
		if err != nil {
			return fmt.Errorf("analysis: plot: %w", err)
		}
		s.Color, s.Shape = color.RGBA{R: 220, A: 255}, draw.CircleGlyph{}
		p.Add(s)
		// Named in the title, not by a legend, which would cover the curve.
		p.Title.Text += " (red: a mistake or blunder)"
	}
	if err := p.Save(8*vg.Inch, 4*vg.Inch, path); err != nil {
		return fmt.Errorf("analysis: plot: %w", err)
	}
	return nil
}

// plyTicks marks the ply axis at whole numbers only: a step of 1, 2 or 5
// times a power of ten giving at most about 10 labelled ticks.
type plyTicks struct{}

// Ticks implements plot.Ticker.
func (plyTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1
	for k := 0; (hi-lo)/float64(step) > 10; k++ {
		step = []int{2, 5, 10}[k%3] * int(math.Pow10(k/3))
	}
	var ticks []plot.Tick
	for v := int(math.Ceil(lo/float64(step))) * step; float64(v) <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: float64(v), Label: strconv.Itoa(v)})
	}
	return ticks
}

// whiteSide returns e, the mover's, as white's chance (or value).
func whiteSide(an *GameAnalysis, e Eval, mover string) float64 {
	v := float64(e.Value)
	if an.Probabilities {
		v = float64(*e.WinProb)
	}
	if mover == "white" {
		return v
	}
	if an.Probabilities {
		return 1 - v
	}
	return -v
}
