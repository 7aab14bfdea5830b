package data

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// Format constants of shard files; doc.go lays the format out field by field.
const (
	Magic         = "KMLKSHRD" // first 8 bytes of every shard file
	FormatVersion = 1          // the only format version this package reads and writes
	MaxObsLen     = 1 << 16    // largest observation length a shard may hold
	MaxActions    = 64         // largest action count (the legal mask is a uint64)
	MaxPayload    = 1 << 30    // largest uncompressed payload, bytes
	MaxString     = 255        // longest game, obs_version or source string, bytes
)

// Errors wrapped by ReadShard, ReadShardHeader, WriteShard, LoadWindow and
// Prune, for errors.Is.
var (
	ErrBadMagic  = errors.New("bad magic (not a kumalak shard)")
	ErrVersion   = errors.New("unsupported format version")
	ErrTruncated = errors.New("truncated")
	ErrChecksum  = errors.New("checksum mismatch")
	ErrSize      = errors.New("wrong sizes")
	ErrCorrupt   = errors.New("corrupt")
	ErrLayout    = errors.New("layout mismatch")
)

// Layout is what every sample of a shard or window shares: the game, the
// observation encoding and the sizes of the arrays.
type Layout struct {
	Game       string // registry name of the game, e.g. "togyz"
	ObsVersion string // observation encoding version, e.g. "togyz/1"
	ObsLen     int    // length of Sample.Obs, 1..MaxObsLen
	NumActions int    // length of Sample.Policy, 1..MaxActions
}

// Validate names the first field out of range.
func (l Layout) Validate() error {
	switch {
	case l.Game == "" || len(l.Game) > MaxString:
		return fmt.Errorf("data: game %q: want 1..%d bytes", l.Game, MaxString)
	case l.ObsVersion == "" || len(l.ObsVersion) > MaxString:
		return fmt.Errorf("data: obs_version %q: want 1..%d bytes", l.ObsVersion, MaxString)
	case l.ObsLen < 1 || l.ObsLen > MaxObsLen:
		return fmt.Errorf("data: obs_len %d out of range 1..%d", l.ObsLen, MaxObsLen)
	case l.NumActions < 1 || l.NumActions > MaxActions:
		return fmt.Errorf("data: num_actions %d out of range 1..%d", l.NumActions, MaxActions)
	}
	return nil
}

// check returns an error naming the first field in which got differs from l.
func (l Layout) check(got Layout) error {
	switch {
	case got.Game != l.Game:
		return fmt.Errorf("%w: game %q, want %q", ErrLayout, got.Game, l.Game)
	case got.ObsVersion != l.ObsVersion:
		return fmt.Errorf("%w: obs_version %q, want %q", ErrLayout, got.ObsVersion, l.ObsVersion)
	case got.ObsLen != l.ObsLen:
		return fmt.Errorf("%w: obs_len %d, want %d", ErrLayout, got.ObsLen, l.ObsLen)
	case got.NumActions != l.NumActions:
		return fmt.Errorf("%w: num_actions %d, want %d", ErrLayout, got.NumActions, l.NumActions)
	}
	return nil
}

// Header describes one shard file. WriteShard fills Version, Count and
// RecordSize itself; the caller supplies the rest.
type Header struct {
	Layout
	Version    int       // format version of the file
	Count      int       // samples in the shard
	RecordSize int       // bytes per uncompressed record: RecordSize(ObsLen, NumActions)
	Iteration  int       // training iteration that produced the samples, >= 0
	RunTotal   int64     // samples generated in the run up to and including this shard; 0 = unknown
	Created    time.Time // when the shard was made, by the caller's clock; zero = unknown
	Source     string    // free text about the producer (model, search settings), <= MaxString bytes
}

// RecordSize returns the bytes of one uncompressed record: the observation
// and policy as float32, the legal mask, outcome, root value, score and ply.
func RecordSize(obsLen, numActions int) int {
	return 4*obsLen + 8 + 4*numActions + 3*4 + 2
}

// WriteShard writes samples to path atomically: it writes a temporary file
// in the same directory (named ".<base>.tmp-*", which no reader takes for a
// shard), syncs it, renames it over path and syncs the directory. A crash
// leaves either the old file or the new one, never a partial shard.
func WriteShard(path string, h Header, samples []Sample) error {
	b, err := encodeShard(&h, samples)
	if err != nil {
		return fmt.Errorf("data: write shard %s: %w", path, err)
	}
	if err := WriteFile(path, b); err != nil {
		return fmt.Errorf("data: write shard %s: %w", path, err)
	}
	return nil
}

// ReadShard reads and checks a whole shard. The samples own their slices
// (they share one backing array, each slice capped to its own extent). The
// error names the file and the fault, wrapping ErrBadMagic, ErrVersion,
// ErrTruncated, ErrChecksum, ErrSize or ErrCorrupt.
func ReadShard(path string) (Header, []Sample, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Header{}, nil, fmt.Errorf("data: read shard: %w", err)
	}
	h, samples, err := decodeShard(b)
	if err != nil {
		return Header{}, nil, fmt.Errorf("data: shard %s: %w", path, err)
	}
	return h, samples, nil
}

// ReadShardHeader reads and checks only the header of a shard, and that the
// file is as long as the header says; it does not decode the payload.
func ReadShardHeader(path string) (Header, error) {
	h, err := readHeaderFile(path)
	if err != nil {
		return Header{}, fmt.Errorf("data: shard %s: %w", path, err)
	}
	return h, nil
}

func readHeaderFile(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer func() { _ = f.Close() }() // read-only: closing loses nothing
	fi, err := f.Stat()
	if err != nil {
		return Header{}, err
	}
	buf := make([]byte, min(fi.Size(), maxHeaderSize))
	if _, err := io.ReadFull(f, buf); err != nil {
		return Header{}, err
	}
	fr, err := parseHeader(buf, fi.Size())
	return fr.h, err
}
