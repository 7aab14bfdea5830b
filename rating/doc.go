// Package rating holds kumalak's one vocabulary of playing strength: game
// results from one player's view (Counts, and Pairs of games sharing an
// opening), the logistic Elo difference they imply with its 95%
// confidence interval (Elo, EloOfCounts, EloOfPairs, LOS), a rating
// against fixed opponents (RateAgainst), and the forms a model card and
// the training metrics store (Match, Rating, with ClampElo keeping JSON
// finite). It imports nothing of kumalak: arena measures with it, net's
// model card and train's ladder record it.
package rating
