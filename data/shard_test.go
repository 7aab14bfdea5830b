package data

import (
	"bytes"
	"errors"
	"flag"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-v1.kshard")

func testHeader() Header {
	return Header{
		Layout:    testLayout,
		Iteration: 3,
		RunTotal:  5000,
		Created:   time.Date(2025, 3, 1, 12, 30, 0, 123456789, time.UTC),
		Source:    "selfplay model=iter-000002 sims=200",
	}
}

func TestRecordSizePinned(t *testing.T) {
	for _, c := range []struct{ obs, act, want int }{{1, 1, 30}, {2, 3, 42}, {40, 9, 218}, {64, 64, 534}} {
		if got := RecordSize(c.obs, c.act); got != c.want {
			t.Errorf("RecordSize(%d, %d) = %d, want %d", c.obs, c.act, got, c.want)
		}
	}
	s := Sample{Obs: []float32{1, -2}, Legal: 0b101, Policy: []float32{0.5, 0, 0.5},
		Outcome: -1, RootValue: 0.25, Score: 0.125, Ply: 258}
	want := []byte{
		0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, // obs 1, -2
		5, 0, 0, 0, 0, 0, 0, 0, // legal
		0, 0, 0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x3f, // policy .5 0 .5
		0, 0, 0x80, 0xbf, 0, 0, 0x80, 0x3e, 0, 0, 0, 0x3e, // outcome -1, root .25, score .125
		2, 1, // ply 258
	}
	if got := AppendRecord(nil, &s); !bytes.Equal(got, want) || len(got) != RecordSize(2, 3) {
		t.Errorf("record bytes\n got %x\nwant %x", got, want)
	}
}

func TestHeaderLayoutPinned(t *testing.T) {
	h := Header{Layout: Layout{Game: "g", ObsVersion: "v1", ObsLen: 2, NumActions: 3},
		Count: 1, RecordSize: 42, Iteration: 7, RunTotal: 100, Created: time.Unix(0, 0x0102030405060708)}
	want := []byte("KMLKSHRD")
	want = append(want, 1, 0, 78, 0, 2, 0, 0, 0, 3, 0, 0, 0, 42, 0, 0, 0)
	want = append(want, 1, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0)
	want = append(want, 8, 7, 6, 5, 4, 3, 2, 1, 0x55, 0, 0, 0, 0, 0, 0, 0, 0xdd, 0xcc, 0xbb, 0xaa)
	want = append(want, 1, 'g', 2, 'v', '1', 0, 0, 0, 0, 0)
	if got := appendHeader(nil, &h, 0x55, 0xaabbccdd); !bytes.Equal(got, want) {
		t.Errorf("header bytes\n got %x\nwant %x", got, want)
	}
}

func writeTestShard(t testing.TB, dir string, n int) (string, Header, []Sample) {
	t.Helper()
	samples := makeSamples(rand.New(rand.NewPCG(1, 2)), testLayout, 0, n)
	path := filepath.Join(dir, ShardName(3))
	if err := WriteShard(path, testHeader(), samples); err != nil {
		t.Fatal(err)
	}
	return path, testHeader(), samples
}

func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 1000} {
		path, want, samples := writeTestShard(t, t.TempDir(), n)
		h, got, err := ReadShard(path)
		if err != nil {
			t.Fatal(err)
		}
		want.Version, want.Count, want.RecordSize = FormatVersion, n, RecordSize(testLayout.ObsLen, testLayout.NumActions)
		if !h.Created.Equal(want.Created) {
			t.Errorf("created %v, want %v", h.Created, want.Created)
		}
		h.Created, want.Created = time.Time{}, time.Time{}
		if h != want {
			t.Errorf("header %+v, want %+v", h, want)
		}
		checkSamples(t, got, samples)
		if hh, err := ReadShardHeader(path); err != nil || hh.Count != n || hh.Source != want.Source {
			t.Errorf("ReadShardHeader = %+v, %v", hh, err)
		}
	}
}

func TestZeroCreatedRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), ShardName(0))
	if err := WriteShard(path, Header{Layout: testLayout}, nil); err != nil {
		t.Fatal(err)
	}
	if h, err := ReadShardHeader(path); err != nil || !h.Created.IsZero() {
		t.Errorf("created %v, err %v; want zero time", h.Created, err)
	}
}

func TestSamplesOwnSlices(t *testing.T) {
	path, _, _ := writeTestShard(t, t.TempDir(), 3)
	_, got, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	next := got[1].Obs[0]
	got[0].Obs = append(got[0].Obs, 99)
	got[0].Policy = append(got[0].Policy, 99)
	if got[1].Obs[0] != next || got[0].Policy[len(got[0].Policy)-2] == 99 {
		t.Error("appending to one sample's slices changed another sample")
	}
}

func TestWriteRejects(t *testing.T) {
	good := func() []Sample { return makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 2) }
	cases := map[string]func(h *Header, s []Sample){
		"obs has 39":      func(h *Header, s []Sample) { s[1].Obs = s[1].Obs[:39] },
		"policy has 10":   func(h *Header, s []Sample) { s[0].Policy = append(s[0].Policy, 0) },
		"legal mask":      func(h *Header, s []Sample) { s[0].Legal |= 1 << 9 },
		"num_actions 65":  func(h *Header, s []Sample) { h.NumActions = 65 },
		"game":            func(h *Header, s []Sample) { h.Game = "" },
		"iteration -1":    func(h *Header, s []Sample) { h.Iteration = -1 },
		"source has 300":  func(h *Header, s []Sample) { h.Source = strings.Repeat("x", 300) },
		"run_total 1 bel": func(h *Header, s []Sample) { h.RunTotal = 1 },
	}
	for name, mutate := range cases {
		dir := t.TempDir()
		h, s := testHeader(), good()
		mutate(&h, s)
		path := filepath.Join(dir, "x.kshard")
		err := WriteShard(path, h, s)
		if !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), path) ||
			!strings.Contains(err.Error(), strings.Fields(name)[0]) {
			t.Errorf("%s: err = %v, want ErrSize naming the file and the field", name, err)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: rejected write left %d files", name, len(left))
		}
	}
}

// rewrite patches b and recomputes the header CRC, so only the patch is wrong.
func rewrite(b []byte, patch func(b []byte)) []byte {
	b = bytes.Clone(b)
	patch(b)
	hs := int(le.Uint16(b[offHeaderSize:]))
	le.PutUint32(b[hs-4:], crc32.Checksum(b[:hs-4], castagnoli))
	return b
}

func readBytes(t *testing.T, b []byte) (string, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), ShardName(1))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadShard(path)
	if err != nil && !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name the file", err)
	}
	_, herr := ReadShardHeader(path)
	if err == nil && herr != nil {
		t.Errorf("ReadShardHeader fails (%v) where ReadShard succeeds", herr)
	}
	return path, err
}

func validBytes(t *testing.T) []byte {
	path, _, _ := writeTestShard(t, t.TempDir(), 50)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRejectTruncated(t *testing.T) {
	b := validBytes(t)
	hs := int(le.Uint16(b[offHeaderSize:]))
	for _, n := range []int{0, 4, 8, 11, 12, 40, hs - 1, hs, hs + 1, len(b) / 2, len(b) - 1} {
		path, err := readBytes(t, b[:n])
		if !errors.Is(err, ErrTruncated) {
			t.Errorf("cut at %d of %d: err = %v, want ErrTruncated", n, len(b), err)
		}
		if _, err := ReadShardHeader(path); n < len(b) && !errors.Is(err, ErrTruncated) {
			t.Errorf("ReadShardHeader, cut at %d: err = %v, want ErrTruncated", n, err)
		}
	}
}

func TestRejectFlippedBytes(t *testing.T) {
	b := validBytes(t)
	hs := int(le.Uint16(b[offHeaderSize:]))
	for off := range hs {
		c := bytes.Clone(b)
		c[off] ^= 0x10
		_, err := readBytes(t, c)
		var want error
		switch {
		case off < offVersion:
			want = ErrBadMagic
		case off < offHeaderSize:
			want = ErrVersion
		case off >= offObsLen:
			want = ErrChecksum
		}
		if err == nil || want != nil && !errors.Is(err, want) {
			t.Errorf("header byte %d flipped: err = %v, want %v", off, err, want)
		}
	}
	for _, off := range []int{hs, hs + 3, (hs + len(b)) / 2, len(b) - 5, len(b) - 1} {
		c := bytes.Clone(b)
		c[off] ^= 0x01
		if _, err := readBytes(t, c); !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrChecksum) {
			t.Errorf("payload byte %d flipped: err = %v, want ErrCorrupt or ErrChecksum", off, err)
		}
	}
}

func TestRejectPayloadChecksum(t *testing.T) {
	b := validBytes(t)
	hs := int(le.Uint16(b[offHeaderSize:]))
	dec, _ := decoder()
	raw, err := dec.DecodeAll(b[hs:], make([]byte, 0, 50*RecordSize(testLayout.ObsLen, testLayout.NumActions)))
	if err != nil {
		t.Fatal(err)
	}
	raw[100] ^= 1 // a valid zstd stream of the wrong payload
	enc, _ := encoder()
	c := rewrite(append(bytes.Clone(b[:hs]), enc.EncodeAll(raw, nil)...), func(c []byte) {
		le.PutUint64(c[offPayload:], uint64(len(c)-hs))
	})
	if _, err := readBytes(t, c); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "payload") {
		t.Errorf("err = %v, want payload checksum mismatch", err)
	}
}

func TestRejectWrongFields(t *testing.T) {
	b := validBytes(t)
	cases := []struct {
		name  string
		patch func(c []byte)
		want  error
	}{
		{"magic", func(c []byte) { copy(c, "KMLKSHRX") }, ErrBadMagic},
		{"version 2", func(c []byte) { le.PutUint16(c[offVersion:], 2) }, ErrVersion},
		{"record_size", func(c []byte) { le.PutUint32(c[offRecordSize:], 219) }, ErrSize},
		{"num_actions 65", func(c []byte) { le.PutUint32(c[offNumActions:], 65) }, ErrSize},
		{"obs_len 0", func(c []byte) { le.PutUint32(c[offObsLen:], 0) }, ErrSize},
		{"count+1", func(c []byte) { le.PutUint64(c[offCount:], 51) }, ErrSize},
		{"count-1", func(c []byte) { le.PutUint64(c[offCount:], 49) }, ErrSize},
		{"count huge", func(c []byte) { le.PutUint64(c[offCount:], 1<<40) }, ErrCorrupt},
		{"payload_size+1", func(c []byte) { le.PutUint64(c[offPayload:], le.Uint64(c[offPayload:])+1) }, ErrTruncated},
		{"payload_size-1", func(c []byte) { le.PutUint64(c[offPayload:], le.Uint64(c[offPayload:])-1) }, ErrCorrupt},
		{"string length", func(c []byte) { c[fixedHeader] = 200 }, ErrCorrupt},
	}
	for _, c := range cases {
		if _, err := readBytes(t, rewrite(b, c.patch)); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := readBytes(t, append(bytes.Clone(b), 0)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("trailing byte: err = %v, want ErrCorrupt", err)
	}
	if _, err := readBytes(t, []byte("PK\x03\x04 a zip file, not a shard")); !errors.Is(err, ErrBadMagic) {
		t.Errorf("zip file: err = %v, want ErrBadMagic", err)
	}
}

func TestRejectBadLegalMask(t *testing.T) {
	h := testHeader()
	s := makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 1)
	s[0].Legal = 1 << 9 // beyond num_actions: WriteShard would refuse it
	h.Version, h.Count, h.RecordSize = FormatVersion, 1, RecordSize(testLayout.ObsLen, testLayout.NumActions)
	raw := AppendRecord(nil, &s[0])
	enc, _ := encoder()
	b := appendHeader(nil, &h, 0, crc32.Checksum(raw, castagnoli))
	hs := len(b)
	b = rewrite(enc.EncodeAll(raw, b), func(c []byte) { le.PutUint64(c[offPayload:], uint64(len(c)-hs)) })
	if _, err := readBytes(t, b); !errors.Is(err, ErrSize) || !strings.Contains(err.Error(), "legal") {
		t.Errorf("err = %v, want a legal mask ErrSize", err)
	}
}

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path, _, _ := writeTestShard(t, dir, 10)
	more := makeSamples(rand.New(rand.NewPCG(5, 5)), testLayout, 100, 20)
	if err := WriteShard(path, testHeader(), more); err != nil {
		t.Fatal(err)
	}
	_, got, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	checkSamples(t, got, more)
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("dir holds %d files after two writes, want 1", len(left))
	}
}

// goldenSamples is the content of testdata/golden-v1.kshard.
func goldenSamples() (Header, []Sample) {
	h := testHeader()
	h.Layout = Layout{Game: "mangala", ObsVersion: "mangala/1", ObsLen: 14, NumActions: 6}
	return h, makeSamples(rand.New(rand.NewPCG(7, 7)), h.Layout, 0, 20)
}

// TestGolden reads a shard written by an earlier build: a format change that
// breaks old files fails here. Run with -update only for a new format version.
func TestGolden(t *testing.T) {
	path := filepath.Join("testdata", "golden-v1.kshard")
	h, want := goldenSamples()
	if *update {
		if err := WriteShard(path, h, want); err != nil {
			t.Fatal(err)
		}
	}
	gh, got, err := ReadShard(path)
	if err != nil {
		t.Fatal(err)
	}
	if gh.Layout != h.Layout || gh.Source != h.Source || gh.RunTotal != h.RunTotal || !gh.Created.Equal(h.Created) {
		t.Errorf("golden header %+v, want %+v", gh, h)
	}
	checkSamples(t, got, want)
}

// TestConcurrentShards exercises the shared zstd coders from several
// goroutines (run with -race).
func TestConcurrentShards(t *testing.T) {
	dir := t.TempDir()
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			samples := makeSamples(rand.New(rand.NewPCG(uint64(g), 0)), testLayout, g*100, 100)
			path := filepath.Join(dir, ShardName(g))
			if err := WriteShard(path, testHeader(), samples); err != nil {
				errs <- err
				return
			}
			_, got, err := ReadShard(path)
			if err == nil && (len(got) != 100 || !got[99].Equal(&samples[99])) {
				err = errors.New("read back different samples")
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
