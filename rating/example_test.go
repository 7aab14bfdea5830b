package rating_test

import (
	"fmt"

	"kumalak/rating"
)

// Elo differences and scores convert both ways; a result's Elo carries
// its confidence interval.
func ExampleEloOfCounts() {
	fmt.Printf("%.0f\n", rating.EloFromScore(0.75))
	fmt.Printf("%.2f\n", rating.ScoreFromElo(0))
	e := rating.EloOfCounts(rating.Counts{W: 60, D: 20, L: 20})
	fmt.Println(e.Lo < e.Diff && e.Diff < e.Hi)
	// Output:
	// 191
	// 0.50
	// true
}
