// Package kalah is Kalah (OpenSpiel's "mancala"): houses a side and seeds
// a house as rule options, registered as "kalah" (6 houses of 4 seeds) and
// found by spec string through env.Lookup ("kalah:houses=4,seeds=3",
// "kalah:capture=empty"). docs/RULES.md states the rules and the variant
// of the published results: Irving, Donkers and Uiterwijk's table and the
// first player's +10 in Kalah(6,4) use the opposite-capture rule
// (Opposite); Rawlings's (6,6) uses empty capture (Empty).
//
// Board is a small value (copying is assignment); Apply assumes a legal
// move, Check says why one is not. The tests' small games (envtest's
// Kalah3, Kala3, Kala6) are Kalah rules too, so the rules have this one
// home.
package kalah
