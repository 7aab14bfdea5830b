// Package kalah is Kalah (OpenSpiel's "mancala"): houses a side and seeds
// a house as rule options, registered as "kalah" (6 houses of 4 seeds) and
// found by spec string through env.Lookup ("kalah:houses=4,seeds=3",
// "kalah:capture=empty"). docs/RULES.md states the rules and the variant
// of the published results: Irving, Donkers and Uiterwijk's +10 in
// Kalah(6,4) and +12 in (6,5), and Rawlings's +2 in (6,6), are under empty
// capture (Empty); under the standard opposite-capture rule (Opposite, the
// default) Kalah(6,4) is +8.
//
// Board is a small value (copying is assignment); Apply assumes a legal
// move, Check says why one is not. The tests' small games (envtest's
// Kalah3, Kala3, Kala6) are Kalah rules too, so the rules have this one
// home.
package kalah
