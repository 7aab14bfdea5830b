package net

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nlpodyssey/safetensors"

	"kumalak/rating"
)

func kmodelTestModel(c Config) *Model {
	return &Model{
		Params: infTestParams(c, 42),
		Meta: Meta{
			Game:       "togyz",
			ObsVersion: "1",
			Steps:      123456,
			Samples:    7890123,
			Parent:     "runs/a/iter-0003.kmodel",
			Created:    time.Date(2026, 11, 29, 13, 4, 5, 123456789, time.UTC),
			Iteration:  4,
			Card: &Card{
				Game: "togyz", Iteration: 4, Search: Search{Sims: 800, CPuct: 1.5},
				Elo:      map[string]rating.Match{"random": {Games: 10, Wins: 9, Losses: 1, Score: 0.9, Elo: 381.7, EloLo: 120, EloHi: 9999}},
				Rating:   &rating.Rating{Elo: 1510.5, Err: 80},
				Exported: time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC),
			},
		},
	}
}

// kmodelRoundTrip returns m written by Marshal and read back by Unmarshal.
func kmodelRoundTrip(t *testing.T, m *Model) *Model {
	t.Helper()
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func sameModel(t *testing.T, got, want *Model) {
	t.Helper()
	if got.Params.Config != want.Params.Config {
		t.Fatalf("config %+v, want %+v", got.Params.Config, want.Params.Config)
	}
	for i, wt := range want.Params.Tensors {
		gt := got.Params.Tensors[i]
		if gt.Name != wt.Name || len(gt.Data) != len(wt.Data) {
			t.Fatalf("tensor %d: %s[%d], want %s[%d]", i, gt.Name, len(gt.Data), wt.Name, len(wt.Data))
		}
		for j := range wt.Data {
			if math.Float32bits(gt.Data[j]) != math.Float32bits(wt.Data[j]) {
				t.Fatalf("tensor %s[%d] = %v, want %v", wt.Name, j, gt.Data[j], wt.Data[j])
			}
		}
	}
	g, w := got.Meta, want.Meta
	if !g.Created.Equal(w.Created) {
		t.Errorf("created %v, want %v", g.Created, w.Created)
	}
	g.Created, w.Created = time.Time{}, time.Time{}
	if !reflect.DeepEqual(g.Card, w.Card) {
		t.Errorf("card %+v, want %+v", g.Card, w.Card)
	}
	g.Card, w.Card = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("meta %+v, want %+v", g, w)
	}
}

func TestKmodelRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for i, c := range infTestConfigs {
		m := kmodelTestModel(c)
		if i == 1 { // empty optional fields
			m.Meta = Meta{Game: "mangala", ObsVersion: "2"}
		}
		path := filepath.Join(dir, "m.kmodel")
		if err := Save(path, m); err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		sameModel(t, got, m)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries after saves, want 1 (temporary files left?)", len(entries))
	}
}

// TestKmodelIsSafetensors reads a saved model with the safetensors package
// alone: the format is standard.
func TestKmodelIsSafetensors(t *testing.T) {
	m := kmodelTestModel(DefaultConfig(20, 9))
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	st, err := safetensors.Deserialize(b)
	if err != nil {
		t.Fatal(err)
	}
	if st.Len() != len(m.Params.Tensors) {
		t.Fatalf("%d tensors, want %d", st.Len(), len(m.Params.Tensors))
	}
	v, ok := st.Tensor("policy.w")
	if !ok || v.DType() != safetensors.F32 || len(v.Shape()) != 2 || v.Shape()[0] != 128 || v.Shape()[1] != 9 {
		t.Fatalf("policy.w: %v %v %v", ok, v.DType(), v.Shape())
	}
	first := math.Float32frombits(binary.LittleEndian.Uint32(v.Data()))
	if first != m.Params.Get("policy.w").Data[0] {
		t.Errorf("policy.w[0] = %v, want %v", first, m.Params.Get("policy.w").Data[0])
	}
}

// kmodelTiny keeps the every-byte tests fast.
var kmodelTiny = Config{InputLen: 3, Actions: 2, Width: 4, Blocks: 1, ValueHidden: 2}

func TestKmodelTruncated(t *testing.T) {
	b, err := Marshal(kmodelTestModel(kmodelTiny))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(b); n++ {
		_, err := Unmarshal(b[:n])
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d of %d bytes: error %v, want ErrCorrupt", n, len(b), err)
		}
	}
	path := filepath.Join(t.TempDir(), "cut.kmodel")
	if err := os.WriteFile(path, b[:len(b)-3], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), "net: load "+path+": truncated") {
		t.Errorf("error %q, want it to start with %q", err, "net: load "+path+": truncated")
	}
}

// TestKmodelFlippedByte flips one bit in every byte in turn: the checksum
// (tensors and metadata) or the parser must refuse each.
func TestKmodelFlippedByte(t *testing.T) {
	b, err := Marshal(kmodelTestModel(kmodelTiny))
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 1 << (i % 8)
		if _, err := Unmarshal(c); err == nil {
			t.Fatalf("byte %d of %d flipped (%q -> %q): no error", i, len(b), b[i], c[i])
		}
	}
	c := append([]byte(nil), b...)
	c[len(c)-1] ^= 0x40 // last byte of the last tensor
	if _, err := Unmarshal(c); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("flipped tensor byte: %v, want a checksum mismatch", err)
	}
}

// rewriteMeta re-encodes b with the metadata changed by edit (the checksum
// is not updated unless edit does it).
func rewriteMeta(t *testing.T, b []byte, edit func(map[string]string)) []byte {
	t.Helper()
	st, err := safetensors.Deserialize(b)
	if err != nil {
		t.Fatal(err)
	}
	_, md, err := safetensors.ReadMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	kv := map[string]string{}
	for k, v := range md.Metadata() {
		kv[k] = v
	}
	edit(kv)
	views := map[string]safetensors.TensorView{}
	for _, nv := range st.Tensors() {
		views[nv.Name] = nv.TensorView
	}
	out, err := safetensors.Serialize(views, kv)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestKmodelRefusals(t *testing.T) {
	m := kmodelTestModel(infTestConfigs[1])
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	resum := func(kv map[string]string) { kv[keyChecksum] = checksum(m.Params, kv) }
	cases := []struct {
		name string
		edit func(map[string]string)
		kind error
		msg  string
	}{
		{"format version", func(kv map[string]string) { kv[keyVersion] = "2"; resum(kv) },
			ErrFormatVersion, `format version "2", this build reads 1`},
		{"not kmodel", func(kv map[string]string) { delete(kv, keyFormat) },
			ErrCorrupt, `not a kmodel file (format "")`},
		{"metadata edited", func(kv map[string]string) { kv[keyGame] = "mangala" },
			ErrCorrupt, "checksum mismatch"},
		{"bad width", func(kv map[string]string) { kv[keyWidth] = "0"; resum(kv) },
			ErrCorrupt, "architecture: width 0 out of range 1..4096"},
		{"shape mismatch", func(kv map[string]string) { kv[keyWidth] = "34"; resum(kv) },
			ErrCorrupt, "has shape"},
		{"bad steps", func(kv map[string]string) { kv[keySteps] = "many"; resum(kv) },
			ErrCorrupt, `metadata steps: "many" is not an integer`},
		{"bad card", func(kv map[string]string) { kv[keyCard] = "{"; resum(kv) },
			ErrCorrupt, "metadata card is not valid JSON"},
		{"not a card", func(kv map[string]string) { kv[keyCard] = `{"elo":1510.5}`; resum(kv) },
			ErrCorrupt, "metadata card is not a model card"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unmarshal(rewriteMeta(t, b, tc.edit))
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %v containing %q", err, tc.kind, tc.msg)
			}
		})
	}
	if _, err := Unmarshal([]byte("PK\x03\x04 this is a zip, not a model")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("zip bytes: %v, want ErrCorrupt", err)
	}
}

func TestLoadFor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "best.kmodel")
	m := kmodelTestModel(infTestConfigs[1])
	m.Meta.Game, m.Meta.ObsVersion = "mangala", "3"
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFor(path, "mangala", "3"); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFor(path, "togyz", "3")
	want := `net: load ` + path + `: model is for game "mangala", not "togyz"`
	if err == nil || err.Error() != want || !errors.Is(err, ErrWrongModel) {
		t.Errorf("wrong game: %v, want %q", err, want)
	}
	_, err = LoadFor(path, "mangala", "4")
	want = `net: load ` + path + `: model uses observation encoding "3", not "4"`
	if err == nil || err.Error() != want || !errors.Is(err, ErrWrongModel) {
		t.Errorf("wrong encoding: %v, want %q", err, want)
	}
	if _, err := LoadFor(filepath.Join(dir, "none.kmodel"), "mangala", "3"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want os.ErrNotExist", err)
	}
}

func TestSaveRefusesBadCard(t *testing.T) {
	m := kmodelTestModel(infTestConfigs[1])
	m.Meta.Card.Rating.Elo = math.NaN()
	path := filepath.Join(t.TempDir(), "x.kmodel")
	if err := Save(path, m); err == nil || !strings.Contains(err.Error(), "model card") {
		t.Fatalf("Save of a card with a NaN: %v, want a model card error", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Save left a file: %v", err)
	}
}

func FuzzUnmarshal(f *testing.F) {
	b, err := Marshal(kmodelTestModel(kmodelTiny))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	golden, err := os.ReadFile(filepath.Join("testdata", "card-v1.kmodel"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add(b[:len(b)/2])
	f.Add(b[:9])
	f.Add([]byte{})
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Add([]byte("\x10\x00\x00\x00\x00\x00\x00\x00{\"a\":{\"dtype\":1}}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Unmarshal(b)
		if err == nil && m.Params.Config.Validate() != nil {
			t.Fatalf("accepted an invalid architecture %+v", m.Params.Config)
		}
	})
}

// TestLoadMeta: the header alone gives Load's metadata; a file that is no
// model is refused as Load refuses it.
func TestLoadMeta(t *testing.T) {
	dir := t.TempDir()
	m := kmodelTestModel(kmodelTiny)
	m.Meta.Game, m.Meta.Card = "togyz", &Card{Game: "togyz", Iteration: 123}
	good := filepath.Join(dir, "good.kmodel")
	if err := Save(good, m); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(good)
	cases := []struct {
		name string
		data []byte
		err  error // nil: reads
	}{
		{"whole", b, nil},
		{"tensors cut", b[:len(b)-4], nil}, // the header is whole: LoadMeta does not read on
		{"header cut", b[:20], ErrCorrupt},
		{"empty", nil, ErrCorrupt},
		{"huge header", []byte("\xff\xff\xff\xff\x00\x00\x00\x00{}"), ErrCorrupt},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		meta, err := LoadMeta(path)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || meta.Game != "togyz" || meta.Card == nil || meta.Card.Iteration != 123 {
			t.Errorf("%s: %+v, %v", c.name, meta, err)
		}
	}
}

// FuzzReadMeta: readMeta never panics, and where Unmarshal reads a model
// it reads the same metadata.
func FuzzReadMeta(f *testing.F) {
	b, err := Marshal(kmodelTestModel(kmodelTiny))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range [][]byte{b, b[:9], nil, []byte("\x02\x00\x00\x00\x00\x00\x00\x00{}")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		meta, err := readMeta(bytes.NewReader(b))
		m, merr := Unmarshal(b)
		if merr == nil && (err != nil || meta.Game != m.Meta.Game || meta.Steps != m.Meta.Steps || (meta.Card == nil) != (m.Meta.Card == nil)) {
			t.Fatalf("Unmarshal read %+v, readMeta %+v, %v", m.Meta, meta, err)
		}
	})
}
