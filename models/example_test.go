package models_test

import (
	"fmt"

	"kumalak/models"
	"kumalak/net"
)

// The shipped models, one per game, as .kmodel bytes that net reads.
func Example() {
	for _, g := range models.Games() {
		b, err := models.Bytes(g)
		if err != nil {
			panic(err)
		}
		m, err := net.Unmarshal(b)
		if err != nil {
			panic(err)
		}
		fmt.Println(g, models.Name(g), m.Meta.Game == g)
	}
	// Output:
	// kalah shipped:kalah true
	// mangala shipped:mangala true
	// mangala-kale shipped:mangala-kale true
	// togyz shipped:togyz true
}
