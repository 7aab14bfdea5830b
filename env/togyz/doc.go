// Package togyz is Togyz Kumalak (Dokuz Kumalak) exactly as docs/RULES.md rules
// it, registered with env as "togyz".
//
// # Board
//
// A Board is a 23-byte value of fixed arrays: the 18 pits in sowing-cycle
// order (white's 1..9, then black's 1..9), the two kazans, each player's
// tuzdyk as a cycle index or -1, and the player to move. Copying a Board is
// assignment; *Board implements env.State, env.Checker, env.Scorer,
// env.Hasher and env.Perfter. Apply, Legal, Result, Observe, CopyFrom, Hash
// and Perft allocate nothing. A Board is not safe for concurrent use.
//
// Invariants: the pits and kazans hold 162 stones; a tuzdyk pit holds 0; a
// player's tuzdyk is on the other row, never pit 9, and the two tuzdyks have
// different numbers. Apply settles the end of the game (a kazan of 82, or
// atsyrau with its collection); Parse also accepts terminal positions that
// still show stones on the non-moving side, and Result counts those stones
// for their owner.
//
// # Notation
//
// A move is written as the pit played and the pit (1..9, on whichever row)
// that received the last stone, with x when it made a tuzdyk: "76", "36x".
// Records go in numbered pairs: "1. 21 65 2. 34 22x". ApplyNoted,
// FormatRecord and ParseRecord write and read them; ParseRecord also takes
// a bare pit ("7") and checks every landing pit and x against the game.
//
// # Observation (ObsVersion "togyz/1", ObsLen 116)
//
// Observe encodes the position from the view of the player to move, the
// "mover"; the other player is the "opponent". Pit features come in groups
// of 18: the mover's pits 1..9 first, then the opponent's pits 1..9, so the
// same position seen by the other player, with rows and kazans swapped,
// gives the same features. Features, by offset:
//
//	  0..17  stones/18 in each pit. 18 is one lap of the cycle, so the
//	         integer part is the number of whole laps the pit's sowing
//	         makes, and the start position reads 0.5. Linear, not clipped:
//	         a large pit's exact size decides where its last stone lands.
//	 18..35  1 if the pit is empty (a mover's empty pit can't be played; a
//	         tuzdyk always reads 1 here).
//	 36..53  1 if the pit holds an odd number: a last stone landing in an
//	         odd opponent pit makes it even and captures it.
//	 54..71  1 if the pit holds exactly 2: a last stone landing there makes
//	         3, a tuzdyk chance.
//	 72..80  one-hot: the mover's tuzdyk, on the opponent's pit 1..9.
//	 81..89  one-hot: the opponent's tuzdyk, on the mover's pit 1..9.
//	 90, 91  1 if the mover, the opponent, owns no tuzdyk yet, so may still
//	         make one.
//	 92, 93  kazan/82 for the mover, the opponent: 1.0 is a win at once.
//	 94, 95  need: (82 - kazan) / stones still in the pits for the mover,
//	         the opponent, clamped to [0, 1]. 0 means that side has 82, 1
//	         that it needs every stone left (or more, so it can no longer
//	         win). This is the "distance to 82" measured against what is left
//	         to win, a ratio the network can't form from 92..97 by itself.
//	 96, 97  stones in the mover's row, the opponent's row, /81 (half the
//	         stones): how much each side still has to play with; 0 on the
//	         mover's side means atsyrau.
//	 98..106 for each mover's pit 1..9, the stones the mover's kazan gains
//	         at once by playing it (even capture, new tuzdyk, stones sown
//	         into the mover's tuzdyk) /18; 0 for an empty pit.
//	107..115 the same for the opponent's pits, as if it were the
//	         opponent's turn: the threats the mover faces.
//
// Scaling: every feature is a flag or, for the typical position, a number
// in [0, 1] (counts and gains above 18 stones, rare, exceed 1 but stay
// below 9), so no feature dominates the first layer. Counts are divided by
// the lap length 18 rather than by 162 so that the usual range of a pit, 0
// to about 30, spreads over [0, 1.7] instead of squeezing into [0, 0.2].
// Kazans are divided by 82 so that the winning threshold reads 1.
package togyz
