package learn

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// ckSample is a trained trainer's checkpoint, score head included.
func ckSample(t testing.TB) *Checkpoint {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Batch, cfg.ScoreWeight, cfg.WarmupSteps = 4, 1, 2
	tr := trMust(t, trParams(trTinyConfig, 8), cfg)
	rng := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 3; i++ {
		tr.SetProgress(0.1 * float64(i))
		if _, err := tr.Step(trBatch(trTinyConfig, cfg.Batch, rng)); err != nil {
			t.Fatal(err)
		}
	}
	return tr.Checkpoint()
}

func TestCheckpointRoundTrip(t *testing.T) {
	ck := ckSample(t)
	b, err := ck.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != ck.size() {
		t.Errorf("encoded %d bytes, size() says %d", len(b), ck.size())
	}
	var got Checkpoint
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	again, err := got.MarshalBinary()
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("decode then encode changed the bytes (%v)", err)
	}
	if got.Steps != 3 || got.Updates != 3 || got.LastLR != ck.LastLR || len(got.Tensors) != len(ck.Tensors) {
		t.Errorf("decoded %+v", got)
	}
	aux := 0
	for _, tn := range got.Tensors {
		if tn.Value != nil {
			aux++
		}
	}
	if aux != 2 {
		t.Errorf("%d tensors carry their weights, want the score head's 2", aux)
	}
}

// Every truncation and every single-byte corruption is refused with an
// error saying why.
func TestCheckpointRefusesDamage(t *testing.T) {
	good, err := ckSample(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(good); n += 1 + n/4 {
		var c Checkpoint
		if err := c.UnmarshalBinary(good[:n]); err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("truncated to %d of %d bytes: %v", n, len(good), err)
		}
	}
	for i := 20; i < len(good); i += 1 + i/8 {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		var c Checkpoint
		if err := c.UnmarshalBinary(bad); err == nil || !strings.Contains(err.Error(), "checksum") {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
	cases := map[string]func([]byte) []byte{
		"bad magic":       func(b []byte) []byte { b[0] = 'X'; return b },
		"version 9":       func(b []byte) []byte { binary.LittleEndian.PutUint32(b[8:], 9); return b },
		"the header says": func(b []byte) []byte { return append(b, 0) },
	}
	for want, edit := range cases {
		var c Checkpoint
		if err := c.UnmarshalBinary(edit(bytes.Clone(good))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}

// Values that pass the checksum but make no sense are refused too.
func TestCheckpointRefusesBadValues(t *testing.T) {
	cases := map[string]func(*Checkpoint){
		"updates":       func(c *Checkpoint) { c.Updates = c.Steps + 1 },
		"rates":         func(c *Checkpoint) { c.LastLR = math.NaN() },
		"re-warm":       func(c *Checkpoint) { c.RewarmAt = c.Steps + 1 },
		"second moment": func(c *Checkpoint) { c.Tensors[0].V[0] = -1 },
		"holds":         func(c *Checkpoint) { c.Tensors[1].M[0] = float32(math.Inf(1)) },
		"appears twice": func(c *Checkpoint) { c.Tensors[1].Name = c.Tensors[0].Name },
	}
	for want, edit := range cases {
		ck := ckSample(t)
		edit(ck)
		b, err := ck.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var c Checkpoint
		if err := c.UnmarshalBinary(b); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", want, err)
		}
	}
}

// FuzzCheckpoint feeds the decoder arbitrary bytes: it must never panic,
// and whatever it accepts must encode back to the same bytes.
func FuzzCheckpoint(f *testing.F) {
	good, err := ckSample(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:checkpointHeader+4])
	f.Add([]byte(checkpointMagic))
	empty, _ := (&Checkpoint{RewarmAt: -1}).MarshalBinary()
	f.Add(empty)
	f.Fuzz(func(t *testing.T, b []byte) {
		// As given, and with the length and checksum made right so that
		// mutations reach the body's parser.
		for _, in := range [][]byte{b, ckFixFrame(bytes.Clone(b))} {
			var c Checkpoint
			if c.UnmarshalBinary(in) != nil {
				continue
			}
			again, err := c.MarshalBinary()
			if err != nil || !bytes.Equal(again, in) {
				t.Fatalf("accepted input does not encode back (%v)", err)
			}
		}
	})
}

// ckFixFrame sets b's length field and checksum to match its bytes.
func ckFixFrame(b []byte) []byte {
	if len(b) < checkpointHeader+4 {
		return b
	}
	binary.LittleEndian.PutUint64(b[12:], uint64(len(b)))
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
	return b
}
