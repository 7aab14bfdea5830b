package site_test

import (
	"context"
	"fmt"
	"log"

	"kumalak/bot/web/site"
	_ "kumalak/env/games"
)

// Write builds the wasm bot from the source tree holding the working
// folder (or takes Config.Wasm) and writes the site; ReadManifest reads
// back what the page will load.
func ExampleWrite() {
	rep, err := site.Write(context.Background(), site.Config{Out: "site", Games: []string{"togyz"}, Bundle: true})
	if err != nil {
		log.Fatal(err)
	}
	m, err := site.ReadManifest(rep.Dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, g := range m.Games {
		fmt.Println(g.Game, g.Agent)
	}
}
