// Package arena measures agents against each other: matches of paired
// games, Elo differences with confidence intervals, the sequential
// probability ratio test (SPRT), and round-robin tournaments rated by a
// Bradley-Terry fit.
//
// A Match plays Games games between agents A and B (built from spec strings
// by package agent). Games come in pairs: both games of a pair start from
// the same opening, A playing White in the first and Black in the second,
// so an unbalanced opening favours neither. Openings are either given or
// made of OpeningPlies random plies from the start, drawn from the seed
// (skipping openings that end the game and, while possible, repeats).
// With Config.Balanced (the default) a generated opening is kept only when
// a shallow alpha-beta search rates it near even for the side to move
// (BalanceOf: a pair of games from a decided opening measures the opening,
// not the players); the filter draws from the same seed, so a seed still
// fixes the openings.
//
// Records: each finished game is written to Match.Records as one line of
// JSON (Record): the players and colours, the start position, the opening
// and the moves as pit numbers, the result, the final position, and the
// whole game in the game's notation (Match.Notation, by default the game's
// own: togyz's standard notation, pit numbers for the others). A Records
// writer that is a GameLog takes each game whole instead: Logs writes it
// both as that JSON line and as a game record with header tags
// (env.GameRecord, docs/RECORDS.md), which replay and analyze read.
// Record.Replay gives back the position after a record's opening and the
// agents' moves, which is what the judge of mistakes (package solve) reads
// in `kumalak arena --judge` and in train's baseline games.
//
// Recovery: an agent whose move fails (an engine that crashed, hung past
// its timeout or answered an illegal move, or any other error) loses that
// game, as cutechess-cli's -recover does: the record's Reason says why,
// Result.ForfeitsA and ForfeitsB count such games, and the agent is built
// anew for the next game. One failing 3 games in a row, or that cannot be
// built again, ends the match with that error.
//
// Resuming: a match killed, or to be extended to more games, goes on from
// its log. ReadLog reads the JSON lines back (dropping a last line cut
// short by the kill), ResumeLogs reopens both logs to append to them, and
// Match.Done (Tournament.Done for a round robin) takes the games read:
// each is checked to be a game of this match (its number, agents, colours,
// opening, start and clock; a ResumeError names the first that is not),
// counted, and not played again. Record.Forfeit keeps who lost by failing,
// so a resumed match counts its forfeits too.
//
// Tournaments rate players by a maximum-likelihood Bradley-Terry fit of all
// pairings (draws as half points, optional virtual draws as a prior),
// anchored on "random" = 0 when it plays, else on the first player, with
// intervals from the inverse Fisher information.
//
// Perspective: every figure of a Result (W/D/L, score, Elo, LLR) is from A's
// view.
//
// Statistics: the score s turns into Elo as -400·log10(1/s - 1). The 95%
// interval comes from the variance of the score per pair (pentanomial
// model) when every game was paired, else per game (trinomial); the ends of
// the score interval are turned into Elo the same way (a clean sweep of n
// trials is bounded by the exact binomial limit 0.025^(1/n)). The SPRT uses
// fishtest's generalized log-likelihood ratio on the pairs, stops the match
// when it crosses log(β/(1-α)) or log((1-β)/α), and reports H0 (Elo0),
// H1 (Elo1) or inconclusive.
//
// Concurrency: a match runs Parallel workers, each with its own two agents
// (agents are not safe for concurrent use). Records, Progress and the
// statistics are handled by the goroutine that called Run, in the order
// games finish; results are reproducible for a seed with Parallel = 1.
package arena
