// Package models holds the networks shipped with kumalak: one trained
// model (.kmodel, with its card) for each game. The `model` agent with no
// path plays the game's shipped model, so `kumalak play`, `serve`, `engine`
// and `analyze` play a strong bot with nothing trained first.
//
// The package is data only: it hands out the files' bytes; net.Unmarshal
// decodes them. models/README.md states how each model was made and how
// strong it measured.
package models

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed *.kmodel
var files embed.FS

// ErrNone is returned for a game with no shipped model.
var ErrNone = errors.New("no shipped model")

const ext = ".kmodel"

// Bytes returns the shipped model of game (its .kmodel file's bytes). The
// slice is the caller's.
func Bytes(game string) ([]byte, error) {
	if game == "" || strings.ContainsAny(game, "/\\.") {
		return nil, fmt.Errorf("models: game %q: %w", game, ErrNone)
	}
	b, err := files.ReadFile(game + ext)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("models: game %q: %w (shipped: %s)", game, ErrNone, strings.Join(Games(), ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", game, err)
	}
	return b, nil
}

// Games returns the games that have a shipped model, sorted.
func Games() []string {
	ents, _ := files.ReadDir(".") // the embedded root always reads
	var gs []string
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ext); ok {
			gs = append(gs, name)
		}
	}
	slices.Sort(gs)
	return gs
}

// Name returns the name a shipped model is shown by: "shipped:GAME".
func Name(game string) string { return "shipped:" + game }
