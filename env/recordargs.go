package env

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// GameArgs are the games a command line names: one argument that is not
// move text (IsMoveText) is a record file, "-" standard input; else the
// arguments are moves of Game from Position (its start when "").
type GameArgs struct {
	Args     []string
	Stdin    io.Reader // read for "-"
	Game     string    // the game of moves, and of a record without a Game tag
	Position string    // the start of moves; refused with a record file
}

// ErrPositionWithRecord is ReadGames's error for a position given with a
// record file, whose own Position tag says where its games start.
var ErrPositionWithRecord = errors.New("a position goes with moves, not with a record file (use its Position tag)")

// ReadGames returns the games a names: every game of its record file or
// standard input, or the one game of its moves.
func ReadGames(a GameArgs) ([]*GameRecord, error) {
	if len(a.Args) == 1 && !IsMoveText(a.Args[0]) {
		if a.Position != "" {
			return nil, ErrPositionWithRecord
		}
		def, err := Lookup(a.Game)
		if err != nil {
			return nil, err
		}
		return readRecordArg(a.Args[0], a.Stdin, def)
	}
	spec, err := Lookup(a.Game)
	if err != nil {
		return nil, err
	}
	st, err := spec.Start(a.Position)
	if err != nil {
		return nil, err
	}
	game, err := spec.RecordOfMoves(st, strings.Join(a.Args, " "))
	if err != nil {
		return nil, err
	}
	return []*GameRecord{game}, nil
}

// readRecordArg reads the games of the record file path, or of stdin for
// "-"; def is the game of a record without a Game tag.
func readRecordArg(path string, stdin io.Reader, def *Spec) ([]*GameRecord, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	games, err := ReadRecords(r, def)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return games, nil
}
