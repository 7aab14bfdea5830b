package cluster

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"kumalak/data"
)

func TestBatchRoundTrip(t *testing.T) {
	lay, _ := togyzLayout(t)
	for _, n := range []int{0, 1, 7, 300} {
		b := fakeBatch(lay, "r1", "w1", "w1.s.1", 3, n)
		b.Created = time.Unix(1700000000, 5).UTC()
		msg, err := EncodeBatch(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeBatch(msg)
		if err != nil {
			t.Fatalf("%d samples: %v", n, err)
		}
		if n == 0 {
			got.Samples, b.Samples = nil, nil
		}
		if !reflect.DeepEqual(got, b) {
			t.Fatalf("%d samples: round trip differs:\n got %+v\nwant %+v", n, got.Layout, b.Layout)
		}
	}
}

// TestBatchRecordMatchesShard pins the record size to data's shard record.
func TestBatchRecordMatchesShard(t *testing.T) {
	lay, _ := togyzLayout(t)
	b := fakeBatch(lay, "r", "w", "i", 0, 1)
	if got, want := len(data.AppendRecord(nil, &b.Samples[0])), data.RecordSize(lay.ObsLen, lay.NumActions); got != want {
		t.Fatalf("record is %d bytes, data.RecordSize says %d", got, want)
	}
}

func TestDecodeBatchRejects(t *testing.T) {
	lay, _ := togyzLayout(t)
	good, err := EncodeBatch(fakeBatch(lay, "r1", "w1", "w1.s.1", 0, 20))
	if err != nil {
		t.Fatal(err)
	}
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := []struct {
		name string
		msg  []byte
		want error
	}{
		{"empty", nil, ErrBadMagic},
		{"foreign", []byte("hello world, not a batch"), ErrBadMagic},
		{"shard", []byte("KMLKSHRD\x01\x00"), ErrBadMagic},
		{"short", good[:20], ErrCorrupt},
		{"version", mod(func(b []byte) []byte { b[bOffVersion] = 2; return b }), ErrVersion},
		{"header bit", mod(func(b []byte) []byte { b[bOffCount] ^= 1; return b }), ErrCorrupt},
		{"payload bit", mod(func(b []byte) []byte { b[len(b)-3] ^= 0x40; return b }), ErrCorrupt},
		{"truncated", good[:len(good)-1], ErrCorrupt},
		{"trailing", append(append([]byte(nil), good...), 0), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeBatch(c.msg)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

func TestBatchCheck(t *testing.T) {
	lay, _ := togyzLayout(t)
	b := fakeBatch(lay, "r1", "w1", "id", 0, 1)
	other := lay
	other.ObsVersion = "togyz/0"
	mangala := lay
	mangala.Game = "mangala"
	for _, c := range []struct {
		run string
		lay data.Layout
		ok  bool
	}{{"r1", lay, true}, {"r2", lay, false}, {"r1", other, false}, {"r1", mangala, false}} {
		err := b.Check(c.run, c.lay)
		if (err == nil) != c.ok || (err != nil && !errors.Is(err, ErrForeign)) {
			t.Errorf("Check(%s, %s %s) = %v", c.run, c.lay.Game, c.lay.ObsVersion, err)
		}
	}
}

func TestEncodeBatchRefusesBadSamples(t *testing.T) {
	lay, _ := togyzLayout(t)
	b := fakeBatch(lay, "r1", "w1", "id", 0, 2)
	b.Samples[1].Obs = b.Samples[1].Obs[:3]
	if _, err := EncodeBatch(b); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short obs: %v", err)
	}
	b = fakeBatch(lay, "r1", "", "id", 0, 1)
	if _, err := EncodeBatch(b); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("no worker: %v", err)
	}
}

// FuzzDecodeBatch: whatever arrives, DecodeBatch returns a batch or an
// error of a known kind, never panics, and a decoded batch re-encodes to
// the same bytes.
func FuzzDecodeBatch(f *testing.F) {
	lay := data.Layout{Game: "togyz", ObsVersion: "togyz/1", ObsLen: 5, NumActions: 3}
	for _, n := range []int{0, 1, 4} {
		msg, err := EncodeBatch(fakeBatch(lay, "r", "w", "w.s.1", 1, n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(msg)
	}
	f.Add([]byte(BatchMagic))
	f.Fuzz(func(t *testing.T, msg []byte) {
		head, count, perr := PeekBatch(msg)
		b, err := DecodeBatch(msg)
		if err == nil && (perr != nil || count != len(b.Samples) || head.ID != b.ID || head.Network != b.Network) {
			t.Fatalf("the header alone says %v (%d samples), the whole message decodes to %d", perr, count, len(b.Samples))
		}
		if err != nil {
			if !errors.Is(err, ErrBadMagic) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error of no known kind: %v", err)
			}
			return
		}
		again, err := EncodeBatch(b)
		if err != nil {
			t.Fatalf("decoded batch does not encode: %v", err)
		}
		if _, err := DecodeBatch(again); err != nil {
			t.Fatalf("re-encoded batch does not decode: %v", err)
		}
	})
}
