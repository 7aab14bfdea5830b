package data

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// WindowConfig sets the size of the replay window and the value target.
//
// The window holds the most recent samples of the run. After N samples have
// been generated in the run it holds Size(N) of them, KataGo's power law
// (Wu 2019, "Accelerating Self-Play Learning in Go", appendix; shuffle.py
// with min_rows = taper_window_scale = c):
//
//	Size(N) = min(MaxSamples, c)                                    for N <= c
//	Size(N) = min(MaxSamples, c·(1 + β·((N/c)^α − 1)/α))            for N > c
//
// with c = MinSamples, α = Exponent and β = Growth. It starts at c, so early
// data is not thrown away too soon, then grows sublinearly: it keeps a
// shrinking fraction of an ever longer run, because old samples come from
// weaker networks. KataGo used c = 250000, α = 0.75, β = 0.4.
//
// Since α <= 1 and β <= 1 the slope of Size is at most 1, so the window's
// oldest sample never moves back: the window is exactly the latest
// min(N, Size(N)) samples, however the run split them into Add calls.
type WindowConfig struct {
	MinSamples int     `yaml:"min_samples"` // c: the window floor and power-law scale, 1..MaxSamples
	Exponent   float64 `yaml:"exponent"`    // α: growth exponent, (0, 1]
	Growth     float64 `yaml:"growth"`      // β: growth rate, [0, 1]; 0 keeps the window at c
	MaxSamples int     `yaml:"max_samples"` // hard cap, the memory bound, 1..2^30
	// ValueMix blends the value target: (1−ValueMix)·Outcome + ValueMix·RootValue.
	// 0 trains on game outcomes only, in [0, 1].
	ValueMix float64 `yaml:"value_mix"`
}

// DefaultWindowConfig returns KataGo's α and β with a floor scaled down for
// short mancala games, and a cap of a million samples (a few hundred MB).
func DefaultWindowConfig() WindowConfig {
	return WindowConfig{MinSamples: 50_000, Exponent: 0.75, Growth: 0.4, MaxSamples: 1_000_000}
}

// maxWindow bounds MaxSamples so that indices fit an int32.
const maxWindow = 1 << 30

// Validate names the first field out of range.
func (c WindowConfig) Validate() error {
	switch {
	case c.MaxSamples < 1 || c.MaxSamples > maxWindow:
		return fmt.Errorf("data: max_samples %d out of range 1..%d", c.MaxSamples, maxWindow)
	case c.MinSamples < 1 || c.MinSamples > c.MaxSamples:
		return fmt.Errorf("data: min_samples %d out of range 1..max_samples (%d)", c.MinSamples, c.MaxSamples)
	case !(c.Exponent > 0 && c.Exponent <= 1):
		return fmt.Errorf("data: exponent %v out of range (0, 1]", c.Exponent)
	case !(c.Growth >= 0 && c.Growth <= 1):
		return fmt.Errorf("data: growth %v out of range [0, 1]", c.Growth)
	case !(c.ValueMix >= 0 && c.ValueMix <= 1):
		return fmt.Errorf("data: value_mix %v out of range [0, 1]", c.ValueMix)
	}
	return nil
}

// Size returns the window size after total samples of the run, the formula
// in the WindowConfig comment rounded down.
func (c WindowConfig) Size(total int64) int {
	m := float64(c.MinSamples)
	if n := float64(total); n > m && c.Growth > 0 {
		m *= 1 + c.Growth*(math.Pow(n/m, c.Exponent)-1)/c.Exponent
	}
	return int(min(m, float64(c.MaxSamples)))
}

// Window is the replay window: the latest samples of the run, stored in
// fixed-size chunks that are recycled as samples fall out. It copies what it
// is given and never grows past its size plus two chunks.
//
// A Window is not safe for concurrent use.
type Window struct {
	cfg      WindowConfig
	lay      Layout
	chunkLen int
	chunks   []*chunk // chunks[0] holds local indices [head, head+chunkLen)
	spare    *chunk   // the last dropped chunk, reused by the next one needed
	head     int64    // local index of chunks[0]'s first slot, a multiple of chunkLen
	added    int64    // samples added to this value: the next local index
	total    int64    // samples of the run, including those before a restart
	n        int      // samples held: local indices [added-n, added)
	perm     []int32  // a permutation of [0, n) for sampling without replacement, grown by trim
}

// chunk holds chunkLen samples as parallel arrays.
type chunk struct {
	obs, policy               []float32 // chunkLen rows of ObsLen / NumActions
	legal                     []uint64
	outcome, rootValue, score []float32
	ply                       []uint16
}

// NewWindow returns an empty window for samples of layout lay.
func NewWindow(cfg WindowConfig, lay Layout) (*Window, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := lay.Validate(); err != nil {
		return nil, err
	}
	cl := min(max(cfg.MaxSamples/16, 16), 4096)
	return &Window{cfg: cfg, lay: lay, chunkLen: cl}, nil
}

// Config returns the window's configuration.
func (w *Window) Config() WindowConfig { return w.cfg }

// Layout returns the layout every sample of the window has.
func (w *Window) Layout() Layout { return w.lay }

// Len returns the number of samples held, min(Total(), Size()) unless the
// window was loaded from a directory that held fewer.
func (w *Window) Len() int { return w.n }

// Total returns the samples of the run: all ever added, including those
// counted before a restart (see LoadWindow).
func (w *Window) Total() int64 { return w.total }

// Size returns the target size for the current total, Config().Size(Total()).
func (w *Window) Size() int { return w.cfg.Size(w.total) }

// Add copies samples into the window, dropping the oldest beyond Size(). It
// panics if a sample does not fit the window's layout.
func (w *Window) Add(samples []Sample) {
	for i := range samples {
		if err := checkSample(&samples[i], w.lay); err != nil {
			panic(fmt.Sprintf("data: Window.Add: sample %d: %v", i, err))
		}
	}
	for i := range samples {
		ci, off := w.locate(w.added)
		if ci == len(w.chunks) {
			w.trim()
			ci = len(w.chunks)
			w.chunks = append(w.chunks, w.newChunk())
		}
		w.chunks[ci].put(off, &samples[i], w.lay)
		w.added++
		w.total++
		w.n++
	}
	w.trim()
}

// trim drops the samples beyond Size() and recycles emptied chunks.
func (w *Window) trim() {
	w.n = min(w.n, w.cfg.Size(w.total))
	drop := 0
	for drop < len(w.chunks) && w.head+int64(w.chunkLen) <= w.added-int64(w.n) {
		w.spare = w.chunks[drop]
		w.head += int64(w.chunkLen)
		drop++
	}
	if drop > 0 {
		k := copy(w.chunks, w.chunks[drop:])
		clear(w.chunks[k:])
		w.chunks = w.chunks[:k]
	}
	for i := len(w.perm); i < w.n; i++ { // n never shrinks
		w.perm = append(w.perm, int32(i))
	}
}

func (w *Window) newChunk() *chunk {
	if c := w.spare; c != nil {
		w.spare = nil
		return c
	}
	n := w.chunkLen
	return &chunk{
		obs: make([]float32, n*w.lay.ObsLen), policy: make([]float32, n*w.lay.NumActions),
		legal: make([]uint64, n), outcome: make([]float32, n), rootValue: make([]float32, n),
		score: make([]float32, n), ply: make([]uint16, n),
	}
}

// locate returns the chunk position and offset of local index l.
func (w *Window) locate(l int64) (ci, off int) {
	d := l - w.head
	return int(d / int64(w.chunkLen)), int(d % int64(w.chunkLen))
}

// slot returns the chunk and offset of the window's i-th sample (0 oldest).
func (w *Window) slot(i int) (*chunk, int) {
	if i < 0 || i >= w.n {
		panic(fmt.Sprintf("data: window index %d out of range [0, %d)", i, w.n))
	}
	ci, off := w.locate(w.added - int64(w.n) + int64(i))
	return w.chunks[ci], off
}

func (c *chunk) put(off int, s *Sample, l Layout) {
	copy(c.obs[off*l.ObsLen:(off+1)*l.ObsLen], s.Obs)
	copy(c.policy[off*l.NumActions:(off+1)*l.NumActions], s.Policy)
	c.legal[off], c.ply[off] = s.Legal, s.Ply
	c.outcome[off], c.rootValue[off], c.score[off] = s.Outcome, s.RootValue, s.Score
}

// At copies the window's i-th sample (0 is the oldest) into dst, reusing
// dst's slices when they are large enough.
func (w *Window) At(i int, dst *Sample) {
	c, off := w.slot(i)
	o, a := w.lay.ObsLen, w.lay.NumActions
	dst.Obs = append(dst.Obs[:0], c.obs[off*o:(off+1)*o]...)
	dst.Policy = append(dst.Policy[:0], c.policy[off*a:(off+1)*a]...)
	dst.Legal, dst.Ply = c.legal[off], c.ply[off]
	dst.Outcome, dst.RootValue, dst.Score = c.outcome[off], c.rootValue[off], c.score[off]
}

// Sample appends n samples drawn uniformly from the window without
// replacement, in random order, to dst and returns it. Appended samples are
// copies; their slices reuse those of dst's spare capacity, so a caller that
// passes the previous result[:0] allocates nothing. It panics if n > Len().
func (w *Window) Sample(rng *rand.Rand, n int, dst []Sample) []Sample {
	w.choose(rng, n)
	for _, j := range w.perm[:n] {
		k := len(dst)
		if k < cap(dst) {
			dst = dst[:k+1]
		} else {
			dst = append(dst, Sample{})
		}
		w.At(int(j), &dst[k])
	}
	return dst
}

// ResetSampling restarts the sampling permutation (which Sample and
// FillBatch carry from one draw to the next) at the identity, so that the
// draws after it depend on the window's contents and the rng alone: a run
// that rebuilds its window after a restart (LoadWindow) and resets at the
// same points draws the same batches as one that never stopped.
func (w *Window) ResetSampling() {
	for i := range w.perm {
		w.perm[i] = int32(i)
	}
}

// choose moves a uniform random n-subset of [0, Len()) into perm[:n], in
// random order: a partial Fisher–Yates shuffle of the standing permutation.
// Any permutation works as the start, since fresh draws are independent of it.
func (w *Window) choose(rng *rand.Rand, n int) {
	if n < 0 || n > w.n {
		panic(fmt.Sprintf("data: sampling %d of a window of %d", n, w.n))
	}
	p := w.perm[:w.n]
	for i := range n {
		j := i + rng.IntN(len(p)-i)
		p[i], p[j] = p[j], p[i]
	}
}
