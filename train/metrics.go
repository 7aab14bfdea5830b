package train

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"kumalak/net/learn"
	"kumalak/rating"
	"kumalak/selfplay"
	"kumalak/solve"
)

// Metrics is one line of metrics.jsonl: what one iteration did and measured.
type Metrics struct {
	Iteration    int             `json:"iteration"`
	Time         time.Time       `json:"time"`          // when the iteration ended
	ElapsedSec   float64         `json:"elapsed_sec"`   // run training time at its end
	IterationSec float64         `json:"iteration_sec"` // its own duration
	Samples      int64           `json:"samples"`       // samples generated in the run so far
	Best         int             `json:"best"`          // iteration of the best network after it
	SelfPlay     SelfPlayMetrics `json:"selfplay"`
	Train        TrainMetrics    `json:"train"`
	Eval         EvalMetrics     `json:"eval"`
	Remote       *RemoteMetrics  `json:"remote,omitempty"` // worker samples, when the run has workers
}

// SelfPlayMetrics sums up an iteration's self-play.
type SelfPlayMetrics struct {
	Games           int     `json:"games"`
	Samples         int     `json:"samples"`
	MeanLength      float64 `json:"mean_length"`
	GamesPerSec     float64 `json:"games_per_sec"`
	PositionsPerSec float64 `json:"positions_per_sec"`    // simulations (tree visits: network rows, terminal and proven nodes) per second
	NetRowsPerSec   float64 `json:"net_rows_per_sec"`     // positions the network evaluated per second (the batcher's count)
	NetRowsPerCPU   float64 `json:"net_rows_per_cpu_sec"` // the same per second of the process's CPU time (0 where unknown)
	CPUPerSec       float64 `json:"cpu_per_sec"`          // process CPU seconds per second of self-play (less than the cores when they are shared or idle)
	IdleShare       float64 `json:"idle_share"`           // share of the Go scheduler's processor time with nothing to run: cores self-play left idle
	BatchFill       float64 `json:"batch_fill"`           // mean batch size: network rows per network run
	WhiteWins       int     `json:"white_wins"`
	BlackWins       int     `json:"black_wins"`
	Draws           int     `json:"draws"`
	Resigned        int     `json:"resigned"`
	ResignOff       int     `json:"resign_off"`
	FalseResignRate float64 `json:"false_resign_rate"` // of resign-off games that met the condition, the share not lost
	Capped          int     `json:"capped"`
	SimsPerSample   float64 `json:"sims_per_sample"` // simulations spent (cheap searches included) per recorded sample
	Forced          int     `json:"forced"`          // moves played at once, unsearched and unrecorded (the only legal move)
}

func selfPlayMetrics(s selfplay.Stats, r netReading) SelfPlayMetrics {
	var perCPU, busy float64
	if r.cpu > 0 && s.Elapsed > 0 {
		perCPU = r.rowsPer(r.cpu)
		busy = r.cpu.Seconds() / s.Elapsed.Seconds()
	}
	return SelfPlayMetrics{
		Games: s.Games, Samples: s.Samples, MeanLength: s.MeanLength(),
		GamesPerSec: s.GamesPerSec(), PositionsPerSec: s.PositionsPerSec(),
		NetRowsPerSec: r.rowsPer(s.Elapsed), NetRowsPerCPU: perCPU, CPUPerSec: busy, IdleShare: r.idleShare(s.Elapsed), BatchFill: r.meanBatch(),
		WhiteWins: s.WhiteWins, BlackWins: s.BlackWins, Draws: s.Draws,
		Resigned: s.Resigned, ResignOff: s.ResignOff, FalseResignRate: s.FalseResignRate(), Capped: s.Capped,
		SimsPerSample: s.SimsPerSample(), Forced: s.Forced,
	}
}

// TrainMetrics sums up an iteration's training: mean losses over its steps.
type TrainMetrics struct {
	Steps         int     `json:"steps"`
	Window        int     `json:"window"` // samples in the replay window
	TrainedOn     int64   `json:"trained_on"`
	Reuse         float64 `json:"reuse"` // trained_on over the iteration's new samples: the draws per new sample
	SamplesPerSec float64 `json:"samples_per_sec"`
	LossPolicy    float64 `json:"loss_policy"`
	LossValue     float64 `json:"loss_value"`
	LossTotal     float64 `json:"loss_total"`
	Entropy       float64 `json:"policy_entropy"`
	LR            float64 `json:"lr"`
}

func addLosses(sum *learn.Losses, l learn.Losses) {
	sum.Policy += l.Policy
	sum.Value += l.Value
	sum.Total += l.Total
	sum.PolicyEntropy += l.PolicyEntropy
	sum.LR = l.LR
}

func (t *TrainMetrics) setLosses(sum learn.Losses, steps int) {
	n := float64(steps)
	t.LossPolicy, t.LossValue, t.LossTotal, t.Entropy, t.LR = sum.Policy/n, sum.Value/n, sum.Total/n, sum.PolicyEntropy/n, sum.LR
}

// EvalMetrics is the iteration's evaluation: the gate and the baselines.
type EvalMetrics struct {
	Gate     string                  `json:"gate"`
	Promoted bool                    `json:"promoted"`
	Versus   *rating.Match           `json:"versus_best,omitempty"` // candidate against the best
	Baseline map[string]rating.Match `json:"baselines,omitempty"`   // best network against each fixed baseline
	Ladder   map[string]rating.Match `json:"ladder,omitempty"`      // best network against the ladder's top rungs
	Rating   *rating.Rating          `json:"rating,omitempty"`      // its Elo on the baselines' scale, eval.anchor = 0
	Rung     string                  `json:"rung,omitempty"`        // the rung it was frozen as, when it climbed the ladder
	Mistakes *MistakeMetrics         `json:"mistakes,omitempty"`    // the network's moves in the baseline games judged by the tablebase
	Final    bool                    `json:"final,omitempty"`       // the run's final evaluation (eval.final_baseline_games a baseline)
}

// MistakeMetrics is the judge's count of the network's moves in the
// baseline games (with a tablebase configured): the moves inside the
// tablebase, those that lost value, the stones they lost and the worst,
// with the rates (the fields of arena's and analyze's judge reports).
type MistakeMetrics = solve.Summary

// Summary is the one line printed after each iteration.
func (m Metrics) Summary() string {
	var sb strings.Builder
	sp := m.SelfPlay
	fmt.Fprintf(&sb, "iter %d  %.0fs  games %d (%.1f/s, %.0f sims/s, %.0f rows/s, %.0f rows/cpu-s, batch %.1f, idle %.0f%%, len %.0f, %.0f sims/sample)  loss %.3f (p %.3f v %.3f)",
		m.Iteration, m.IterationSec, sp.Games, sp.GamesPerSec, sp.PositionsPerSec, sp.NetRowsPerSec, sp.NetRowsPerCPU,
		sp.BatchFill, 100*sp.IdleShare, sp.MeanLength, sp.SimsPerSample, m.Train.LossTotal, m.Train.LossPolicy, m.Train.LossValue)
	if v := m.Eval.Versus; v != nil {
		fmt.Fprintf(&sb, "  vs best %.1f%%", 100*v.Score)
	}
	if m.Eval.Promoted {
		sb.WriteString(" promoted")
	}
	if r := m.Eval.Rating; r != nil {
		fmt.Fprintf(&sb, "  rating %s ±%.0f", signed(r.Elo), r.Err)
	}
	sb.WriteString(m.Remote.summary())
	names := make([]string, 0, len(m.Eval.Baseline))
	for n := range m.Eval.Baseline {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b := m.Eval.Baseline[n]
		fmt.Fprintf(&sb, "  %s %.0f%% (elo %s)", n, 100*b.Score, signed(rating.ClampElo(b.Elo)))
	}
	names = names[:0]
	for n := range m.Eval.Ladder {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&sb, "  %s %.0f%%", n, 100*m.Eval.Ladder[n].Score)
	}
	if m.Eval.Rung != "" {
		fmt.Fprintf(&sb, "  frozen as rung %s", m.Eval.Rung)
	}
	if mm := m.Eval.Mistakes; mm != nil {
		fmt.Fprintf(&sb, "  mistakes %.1f%% of %d (%.1f stones each, %.1f%% turning the result)", 100*mm.Rate, mm.Judged, mm.LostPerMistake, 100*mm.TurnedRate)
	}
	return sb.String()
}

// signed formats an Elo figure with its sign, rounded, and 0 without one.
func signed(x float64) string {
	if math.Abs(x) < 0.5 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", x)
}

func appendMetrics(path string, m Metrics) error {
	b, err := json.Marshal(sanitize(m))
	if err != nil {
		return fmt.Errorf("train: metrics: %w", err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("train: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("train: %w", err)
	}
	return f.Close()
}

// ReadMetrics reads every line of a metrics.jsonl file.
func ReadMetrics(path string) ([]Metrics, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	var out []Metrics
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m Metrics
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return out, fmt.Errorf("train: %s line %d: %w", path, n, err)
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// truncateMetrics drops the lines of iterations after last (written by an
// iteration that did not reach its checkpoint), and a torn last line.
func truncateMetrics(path string, last int) error {
	ms, err := ReadMetrics(path)
	if err != nil && len(ms) == 0 && !os.IsNotExist(err) {
		if _, statErr := os.Stat(path); statErr != nil {
			return nil
		}
	}
	var buf bytes.Buffer
	for _, m := range ms {
		if m.Iteration > last {
			break
		}
		b, err := json.Marshal(sanitize(m))
		if err != nil {
			return err
		}
		buf.Write(append(b, '\n'))
	}
	return writeFile(path, buf.Bytes())
}

// sanitize replaces infinite Elo bounds, which JSON can't hold, by
// ±rating.EloNoBound.
func sanitize(m Metrics) Metrics {
	if m.Eval.Versus != nil {
		v := m.Eval.Versus.Clamped()
		m.Eval.Versus = &v
	}
	m.Eval.Baseline = rating.ClampMatches(m.Eval.Baseline)
	m.Eval.Ladder = rating.ClampMatches(m.Eval.Ladder)
	return m
}
