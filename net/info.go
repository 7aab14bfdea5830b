package net

import (
	"fmt"
	"io"
	"time"
)

// WriteInfo writes what a person asks of the model file path: its game
// and observation version, the network and its size, the inference
// kernel this machine uses (KernelName), its training and its card (or
// that it has none: a model straight from a run).
func (m *Model) WriteInfo(w io.Writer, path string) {
	nc := m.Params.Config
	fmt.Fprintf(w, "file          %s\n", path)
	fmt.Fprintf(w, "game          %s (observation %s)\n", m.Meta.Game, m.Meta.ObsVersion)
	fmt.Fprintf(w, "network       %s, %d parameters\n", nc.Describe(), m.Params.Count())
	fmt.Fprintf(w, "kernel        inference on this machine: %s\n", KernelName())
	fmt.Fprintf(w, "trained       iteration %d, %d steps, %d samples, made %s\n",
		m.Meta.Iteration, m.Meta.Steps, m.Meta.Samples, m.Meta.Created.Format(time.RFC3339))
	if m.Meta.Card == nil {
		fmt.Fprintln(w, "card          none (a model straight from a run; `kumalak export` adds one)")
		return
	}
	m.Meta.Card.WriteText(w)
}
