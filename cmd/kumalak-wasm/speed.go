package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"kumalak/agent"
	"kumalak/env"
	_ "kumalak/env/games" // registers every game: togyz, mangala, mangala-kale, kalah
	"kumalak/models"
	"kumalak/net"
)

// Speed is one speed measurement of the shipped model of a game: network
// rows a second (batches of Batch rows of positions from random games)
// and MCTS simulations a second (the model agent searching from the start
// and the positions after it).
type Speed struct {
	Platform   string  `json:"platform"` // GOOS/GOARCH
	Kernel     string  `json:"kernel"`   // net's inference kernel
	Game       string  `json:"game"`
	Batch      int     `json:"batch"`
	Rows       int     `json:"rows"`
	RowsPerSec float64 `json:"rows_per_sec"`
	Sims       int     `json:"sims"`
	SimsPerSec float64 `json:"sims_per_sec"`
}

// JSON returns sp as a JSON object.
func (sp Speed) JSON() string {
	b, _ := json.Marshal(sp) // plain fields: it cannot fail
	return string(b)
}

// measure runs rows network rows in batches of batch, then searches of
// sims simulations (a few moves' worth) with the game's shipped model.
func measure(game string, batch, rows, sims int) (Speed, error) {
	switch {
	case batch < 1 || batch > 256:
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: batch %d out of range 1..256", batch)
	case rows < batch || sims < 1:
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: rows %d (want >= batch) and sims %d (want >= 1)", rows, sims)
	}
	spec, err := env.Lookup(game)
	if err != nil {
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: %w", err)
	}
	b, err := models.Bytes(spec.Facts.Model)
	if err != nil {
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: %w", err)
	}
	m, err := net.Unmarshal(b)
	if err != nil {
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: %s: %w", game, err)
	}
	kernel, _ := net.Kernel()
	sp := Speed{Platform: runtime.GOOS + "/" + runtime.GOARCH, Kernel: kernel, Game: game, Batch: batch, Sims: sims}

	obs, mask := positions(spec, batch, rand.New(rand.NewPCG(1, 2)))
	priors, values := make([]float32, batch*spec.NumActions), make([]float32, batch)
	f := net.NewInfer(m.Params, batch)
	f.Run(obs, mask, priors, values) // warm up
	began := time.Now()
	for sp.Rows = 0; sp.Rows < rows; sp.Rows += batch {
		f.Run(obs, mask, priors, values)
	}
	sp.RowsPerSec = float64(sp.Rows) / time.Since(began).Seconds()

	a, err := agent.New(spec, fmt.Sprintf("model:sims=%d", sims), seed)
	if err != nil {
		return Speed{}, fmt.Errorf("kumalak-wasm: speed: %w", err)
	}
	st, done := spec.New(), 0
	began = time.Now()
	for k := 0; k < 4 && st.Result() == env.Ongoing; k++ {
		mv, err := a.Move(context.Background(), st)
		if err != nil {
			return Speed{}, fmt.Errorf("kumalak-wasm: speed: %w", err)
		}
		st.Apply(mv)
		done += sims
	}
	sp.Sims = done
	sp.SimsPerSec = float64(done) / time.Since(began).Seconds()
	return sp, nil
}

// positions returns the observations and legal masks of n positions of
// random games from the start.
func positions(spec *env.Spec, n int, rng *rand.Rand) (obs, mask []float32) {
	obs, mask = make([]float32, n*spec.ObsLen), make([]float32, n*spec.NumActions)
	st := spec.New()
	var legal []env.Action
	for i := 0; i < n; i++ {
		if st.Result() != env.Ongoing {
			st = spec.New()
		}
		st.Observe(obs[i*spec.ObsLen:])
		legal = st.Legal(legal[:0])
		for _, a := range legal {
			mask[i*spec.NumActions+int(a)] = 1
		}
		st.Apply(legal[rng.IntN(len(legal))])
	}
	return obs, mask
}
