package solve

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// The level file format, version 1. A level file holds the values of every
// pit configuration with one stone count, after a 64-byte little-endian
// header:
//
//	offset size field
//	 0      8   magic "KMLKTBL\n"
//	 8      4   format version (1)
//	12      4   stones on the board: the level s
//	16     16   game name ("mangala"), NUL-padded
//	32      8   entries: LevelSize(s)
//	40      4   CRC-32C (Castagnoli) of the entries
//	44     16   reserved, zero
//	60      4   CRC-32C of bytes 0..59
//
// Then the entries, one signed byte (int8) each, in Rank order: the future
// gain of the mover of that configuration, in stones (the mover's store at
// the end less what it holds now, minus the same for the opponent), under
// perfect play by both sides. It lies in [-s, s] and has the parity of s.
const (
	Magic      = "KMLKTBL\n"
	Version    = 1
	headerSize = 64
	gameLen    = 16
)

// ErrFormat is wrapped by every error for a level file that is not a
// valid tablebase of the wanted game, level and format version.
var ErrFormat = errors.New("not a valid tablebase file")

// castagnoli is the CRC-32C table (hardware accelerated on amd64 and arm64).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header is the decoded header of a level file.
type Header struct {
	Version uint32 // format version
	Stones  int    // the level: stones on the board
	Game    string // game name
	Entries uint64 // number of entries after the header
	CRC     uint32 // CRC-32C of the entries
}

// LevelName returns the file name of level s of game's tablebase, e.g.
// "mangala-16.tb".
func LevelName(game string, s int) string { return fmt.Sprintf("%s-%02d.tb", game, s) }

// encode returns the 64 header bytes of h.
func (h Header) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, Magic)
	binary.LittleEndian.PutUint32(b[8:], h.Version)
	binary.LittleEndian.PutUint32(b[12:], uint32(h.Stones))
	copy(b[16:16+gameLen], h.Game)
	binary.LittleEndian.PutUint64(b[32:], h.Entries)
	binary.LittleEndian.PutUint32(b[40:], h.CRC)
	binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli))
	return b
}

// DecodeHeader reads the header at the start of b and checks what can be
// checked from it alone: the magic, the header checksum, the version, a
// NUL-padded game name, the level range and that the entry count is the
// level's size. Its errors wrap ErrFormat.
func DecodeHeader(b []byte) (Header, error) {
	if len(b) < headerSize {
		return Header{}, fmt.Errorf("%w: %d bytes, shorter than the %d-byte header", ErrFormat, len(b), headerSize)
	}
	if string(b[:8]) != Magic {
		return Header{}, fmt.Errorf("%w: bad magic %q", ErrFormat, b[:8])
	}
	if got, want := crc32.Checksum(b[:60], castagnoli), binary.LittleEndian.Uint32(b[60:]); got != want {
		return Header{}, fmt.Errorf("%w: header checksum mismatch (file corrupt)", ErrFormat)
	}
	if bytes.ContainsFunc(b[44:60], func(r rune) bool { return r != 0 }) {
		return Header{}, fmt.Errorf("%w: reserved header bytes not zero", ErrFormat)
	}
	h := Header{
		Version: binary.LittleEndian.Uint32(b[8:]),
		Entries: binary.LittleEndian.Uint64(b[32:]),
		CRC:     binary.LittleEndian.Uint32(b[40:]),
	}
	if h.Version != Version {
		return Header{}, fmt.Errorf("%w: format version %d, this build reads version %d", ErrFormat, h.Version, Version)
	}
	name := b[16 : 16+gameLen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		if bytes.ContainsFunc(name[i:], func(r rune) bool { return r != 0 }) {
			return Header{}, fmt.Errorf("%w: game name not NUL-padded", ErrFormat)
		}
		name = name[:i]
	}
	h.Game = string(name)
	s := binary.LittleEndian.Uint32(b[12:])
	if s > MaxStones {
		return Header{}, fmt.Errorf("%w: level %d above %d stones", ErrFormat, s, MaxStones)
	}
	h.Stones = int(s)
	if want := LevelSize(h.Stones); h.Entries != want {
		return Header{}, fmt.Errorf("%w: %d entries, level %d has %d", ErrFormat, h.Entries, s, want)
	}
	return h, nil
}

// check verifies that a whole level file, b, is level s of game: header,
// length and the entries' checksum.
func check(b []byte, game string, s int) error {
	h, err := DecodeHeader(b)
	if err != nil {
		return err
	}
	switch {
	case h.Game != game:
		return fmt.Errorf("%w: a tablebase of %q, want %q", ErrFormat, h.Game, game)
	case h.Stones != s:
		return fmt.Errorf("%w: level %d, want %d", ErrFormat, h.Stones, s)
	case uint64(len(b)-headerSize) != h.Entries:
		return fmt.Errorf("%w: truncated or padded: %d bytes, want %d", ErrFormat, len(b), uint64(headerSize)+h.Entries)
	case crc32.Checksum(b[headerSize:], castagnoli) != h.CRC:
		return fmt.Errorf("%w: entries checksum mismatch (file corrupt)", ErrFormat)
	}
	return nil
}

// writeLevel writes the entries of level s of game into dir under a
// temporary name and renames it into place, so that a killed build leaves
// either the whole file or none.
func writeLevel(dir, game string, s int, entries []byte) error {
	path := filepath.Join(dir, LevelName(game, s))
	h := Header{Version: Version, Stones: s, Game: game, Entries: uint64(len(entries)), CRC: crc32.Checksum(entries, castagnoli)}
	f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644))
	if err != nil {
		return fmt.Errorf("solve: write %s: %w", path, err)
	}
	defer f.Cleanup()
	if _, err := f.Write(h.encode()); err != nil {
		return fmt.Errorf("solve: write %s: %w", path, err)
	}
	if _, err := f.Write(entries); err != nil {
		return fmt.Errorf("solve: write %s: %w", path, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("solve: write %s: %w", path, err)
	}
	return nil
}

// exists reports whether path names an existing file.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}
