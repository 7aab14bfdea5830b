// Package env is the shared game vocabulary of kumalak: the State interface
// every game implements, its static Spec, actions, players and results, a
// registry of games by name, the checked move door Play, and perft.
//
// Perspective: a State knows whose turn it is (ToMove). Observations are
// from the mover's view; Result.Value(p) gives an outcome from any player's
// view. Turns do not always alternate (mangala's extra turn), so code that
// backs values up a game tree compares players instead of negating per ply.
//
// Position strings have one form for every game (docs/RULES.md): ParsePosition
// reads and checks what all games share, and each game adds its own rules
// (where a tuzdyk or castle may stand).
//
// One of each: Player.Name names a side for people, Drawing draws any
// board (Drawer), Pits turns actions into pit numbers and LegalPits lists
// the legal moves as such, Same compares two positions, MaxActions bounds
// every game's action count, and Spec.ParseMoves reads a record in the
// game's notation (Spec.ReadMove), as Spec.FormatMoves writes one.
//
// Record files (docs/RECORDS.md): a GameRecord is one game with header
// tags in the manner of chess's PGN; RecordReader and ReadRecords read a
// file of several, with errors naming the game, the line and the move, and
// GameRecord.Text and WriteRecords write them.
//
// Games live in subpackages (env/togyz, env/mangala) and register themselves
// in init; import kumalak/env/games to register all of them. The conformance
// suite every game passes is in env/envtest.
//
// States are not safe for concurrent use; copies (CopyFrom) are independent.
package env
