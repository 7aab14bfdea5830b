package solve

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kumalak/env"
	"kumalak/env/mangala"
)

// naive is a deliberately plain minimax through the rules engine: it
// returns white's future gain (white's store gain less black's) with white
// maximising and black minimising, memoised on the pits and the mover.
type naive map[[2*rowPits + 1]uint8]int

func (m naive) value(b *mangala.Board) int {
	var key [2*rowPits + 1]uint8
	var rows [2]int
	for p := env.White; p <= env.Black; p++ {
		for i := 1; i <= rowPits; i++ {
			key[int(p)*rowPits+i-1] = uint8(b.Pit(p, i))
			rows[p] += b.Pit(p, i)
		}
	}
	key[2*rowPits] = uint8(b.ToMove())
	if v, ok := m[key]; ok {
		return v
	}
	var v int
	switch {
	case rows[0] == 0: // the player whose row is empty takes the other row
		v = rows[1]
	case rows[1] == 0:
		v = -rows[0]
	default:
		white := b.ToMove() == env.White
		v = -1000
		if !white {
			v = 1000
		}
		for _, a := range b.Legal(nil) {
			c := *b
			c.Apply(a)
			w := c.Store(env.White) - b.Store(env.White) - (c.Store(env.Black) - b.Store(env.Black)) + m.value(&c)
			if white {
				v = max(v, w)
			} else {
				v = min(v, w)
			}
		}
	}
	m[key] = v
	return v
}

// TestTablebaseMatchesNaive compares every entry of the levels up to 8
// stones, with either colour to move, with the naive minimax.
func TestTablebaseMatchesNaive(t *testing.T) {
	tb := openShared(t, 8)
	m := naive{}
	for s := 0; s <= 8; s++ {
		for r := range LevelSize(s) {
			p := Unrank(s, r)
			v, ok := tb.Value(&p)
			w := m.value(boardOf(t, p, env.White, false))
			bl := -m.value(boardOf(t, p, env.Black, false))
			if !ok || v != w || v != bl {
				t.Fatalf("%v: tablebase %d (%v), naive %d with white to move, %d with black", p, v, ok, w, bl)
			}
		}
	}
}

// TestBuildResume kills nothing but removes a finished level and checks
// that a second build keeps the others and redoes only that one, byte for
// byte.
func TestBuildResume(t *testing.T) {
	dir := t.TempDir()
	var done int64
	cfg := BuildConfig{Dir: dir, Stones: 6, Workers: 2, Progress: func(n int64) { done += n }}
	stats, err := Build(context.Background(), cfg)
	if err != nil || len(stats) != 7 || done != int64(binomial(18, 12)) {
		t.Fatalf("build: %v, %d levels, progress %d", err, len(stats), done)
	}
	five := filepath.Join(dir, LevelName(MangalaTB, 5))
	before, _ := os.ReadFile(five)
	os.Remove(five)
	// A temporary file left by a killed build is ignored.
	os.WriteFile(filepath.Join(dir, ".mangala-05.tb12345"), []byte("partial"), 0o644)
	if n, _ := Pending(cfg); n != LevelSize(5) {
		t.Fatalf("pending %d, want level 5's %d", n, LevelSize(5))
	}
	stats, err = Build(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stats {
		if st.Kept != (st.Stones != 5) {
			t.Errorf("level %d kept %v", st.Stones, st.Kept)
		}
	}
	after, _ := os.ReadFile(five)
	if string(before) != string(after) || len(after) != headerSize+int(LevelSize(5)) {
		t.Errorf("rebuilt level 5 differs (%d bytes, was %d)", len(after), len(before))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, BuildConfig{Dir: dir, Stones: 8}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: %v", err)
	}
}

// copyShared copies the shared levels 0..6 into a new folder.
func copyShared(t *testing.T) string {
	dir := t.TempDir()
	for s := 0; s <= 6; s++ {
		b, err := os.ReadFile(filepath.Join(sharedDir(t), LevelName(MangalaTB, s)))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, LevelName(MangalaTB, s)), b, 0o644)
	}
	return dir
}

// TestOpenRefuses damages level 4 in several ways and checks that Open
// refuses it with an error naming the file and the reason.
func TestOpenRefuses(t *testing.T) {
	reheader := func(b []byte) { binary.LittleEndian.PutUint32(b[60:], crc32.Checksum(b[:60], castagnoli)) }
	cases := []struct {
		name   string
		damage func(b []byte) []byte
		want   string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }, "truncated"},
		{"header only", func(b []byte) []byte { return b[:30] }, "shorter than"},
		{"flipped entry", func(b []byte) []byte { b[headerSize+7] ^= 1; return b }, "entries checksum mismatch"},
		{"flipped header", func(b []byte) []byte { b[13] ^= 1; return b }, "header checksum mismatch"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, "bad magic"},
		{"version", func(b []byte) []byte { b[8] = 2; reheader(b); return b }, "format version 2"},
		{"game", func(b []byte) []byte { copy(b[16:], "mangala-kale"); reheader(b); return b }, `tablebase of "mangala-kale"`},
		{"level", func(b []byte) []byte { b[12] = 3; reheader(b); return b }, "entries, level 3"},
	}
	for _, c := range cases {
		dir := copyShared(t)
		path := filepath.Join(dir, LevelName(MangalaTB, 4))
		b, _ := os.ReadFile(path)
		os.WriteFile(path, c.damage(b), 0o644)
		tb, err := Open(dir, -1)
		if err == nil {
			tb.Close()
			t.Errorf("%s: opened", c.name)
			continue
		}
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v; want ErrFormat, %q and the path", c.name, err, c.want)
		}
	}
	if _, err := Open(t.TempDir(), -1); err == nil || !strings.Contains(err.Error(), "no tablebase") {
		t.Errorf("empty folder: %v", err)
	}
	tb, err := Open(copyShared(t), -1)
	if err != nil || tb.Stones() != 6 {
		t.Fatalf("undamaged copy: %v", err)
	}
	tb.Close()
	gap := copyShared(t)
	os.Remove(filepath.Join(gap, LevelName(MangalaTB, 3)))
	if _, err := Open(gap, -1); err == nil || !strings.Contains(err.Error(), "level 3") || !strings.Contains(err.Error(), "missing below level 4") {
		t.Errorf("a gap at level 3: %v", err)
	}
	if tb, err := Open(gap, 2); err != nil || tb.Stones() != 2 {
		t.Errorf("levels 0..2 of a folder with a gap above: %v", err)
	} else {
		tb.Close()
	}
}

// FuzzDecodeHeader checks that DecodeHeader never panics and that what it
// accepts encodes back to the same bytes.
func FuzzDecodeHeader(f *testing.F) {
	f.Add(Header{Version: Version, Stones: 3, Game: MangalaTB, Entries: LevelSize(3), CRC: 7}.encode())
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := DecodeHeader(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		if got := h.encode(); string(got) != string(b[:headerSize]) {
			t.Fatalf("%x decodes to %+v, which encodes to %x", b[:headerSize], h, got)
		}
	})
}
