// Package mangala implements Turkish Mangala as docs/RULES.md rules it: the
// classic game ("mangala", Spec) and the castle variant ("mangala-kale",
// KaleSpec), which is a rule option of the same Board type. Both register
// themselves with env in init.
//
// # Board
//
// A Board is an 18-byte value of fixed arrays (pits, stores, castles, side
// to move, variant); copying is assignment and *Board implements env.State,
// env.Checker, env.Scorer, env.Hasher and env.Perfter. Apply, Legal,
// Result, Observe, CopyFrom, Hash and Perft allocate nothing. Apply assumes a
// legal move and panics otherwise; people and files go through env.Play,
// which asks Check for the reason ("pit is empty", "pit is a castle").
//
// Invariants: the 48 stones are all in pits and stores; a castle pit holds
// 0; in the classic game there are no castles; a castle is never on pit 6.
//
// Perspective: ToMove is the player to move. In the classic game a move
// whose last stone falls in the mover's store leaves ToMove unchanged (an
// extra turn) unless it ended the game; turns do not simply alternate, so
// callers compare players. When a move ends the game its end rule is applied
// at once (the remaining stones are collected into stores) and ToMove is the
// mover's opponent. Result of a parsed terminal position that still shows
// stones in pits counts them as the end rule would collect them.
//
// # Observation
//
// Observe writes ObsLen = 77 features from the view of the player to move
// (the "mover"). ObsVersion is "mangala/1" for the classic game and
// "mangala-kale/1" for kale; the layout is the same in both, features that
// do not apply to a variant are 0. Colour is not encoded: a position and
// its mirror image with the other side to move give the same observation.
//
// The 12 pits are taken in view order, k = 0..11: the mover's pits 1..6,
// then the opponent's pits 1..6. That is also the order in which the mover
// sows (the classic store sits between k = 5 and k = 6). Each per-pit
// feature is a plane of 12 values in that order:
//
//	[0, 12)   count/12. Stones in the pit. 12 is one lap of the kale cycle
//	          (13 places in the classic one): values below 1 are pits whose
//	          sowing stays within one lap, which is nearly all of them (4
//	          stones at the start); no clipping, so the largest possible
//	          value is 48/12 = 4.
//	[12, 24)  empty: 1 when the pit holds 0. A mover's empty pit is where a
//	          last stone captures the opposite pit (classic rule 3); an
//	          opponent's empty pit is the opponent's capture square and
//	          can't be played. Castles are empty too.
//	[24, 36)  odd: 1 when the pit holds an odd number. A last stone there
//	          makes it even, so an odd opponent pit is a capture target for
//	          the mover (rule 2) and an odd mover pit one for the opponent.
//	[36, 48)  extra turn (classic only): 1 when the pit's owner, sowing it,
//	          would end in their own store. Pit i (1..6) with n stones does
//	          so when n = 1 and i = 6, or when n > 1 and i+n-1 = 7 modulo
//	          13 (the first stone goes back into pit i, the store is place
//	          7 of the 13-place cycle): n = 8-i, 21-i, 34-i or 47-i.
//	[48, 60)  castle target (kale only): 1 when the pit holds exactly 2, is
//	          not pit 6 and the player across still may build a castle: a
//	          last stone there from that player makes 3 and a castle.
//
// Then single values:
//
//	60, 61    mover's store/24, opponent's store/24. 24 is half the stones:
//	          a store above 1 has won, 1:1 is the draw line.
//	62, 63    stones in the mover's row/24, in the opponent's row/24. They
//	          tell how close a row is to empty (the end rule) and, with the
//	          stores, who gets which stones at the end.
//	[64, 69)  mover's castle (kale): one-hot over the opponent's pits 1..5
//	          (pit 6 can't be a castle); all 0 when the mover has none.
//	[69, 74)  opponent's castle (kale), one-hot over the mover's pits 1..5.
//	74, 75    mover may still build a castle, opponent may (kale: 1 while
//	          that player has none; a player builds at most one).
//	76        variant: 1 in kale, 0 in the classic game.
//
// All features are 0/1 flags or counts divided by a fixed scale, so every
// value lies in [0, 4] and typical ones in [0, 1].
//
// # Drawing
//
// Draw returns the board as the players see it: black's row on top from
// black's pit 6 (left) to pit 1 (right), white's row below from 1 to 6,
// black's store on the left and white's on the right.
//
// # Concurrency
//
// Boards are not safe for concurrent use; copies are independent. The
// package keeps no mutable state.
package mangala
