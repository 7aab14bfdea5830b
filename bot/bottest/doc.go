// Package bottest holds the helpers the tests of the front ends (bot/...)
// share: agents with a fixed seed, small random models with a card, and a
// check of a transcript's order. Importing it registers every game (as
// env/games does). It is imported by tests only.
package bottest
