package data

import (
	"bytes"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadShard feeds arbitrary bytes to the shard decoder: it must return
// an error or a shard that survives a second round trip, never panic.
//
//	go test ./data -run '^$' -fuzz FuzzReadShard -fuzztime 30s
func FuzzReadShard(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden-v1.kshard"))
	if err != nil {
		f.Fatal(err)
	}
	h := testHeader()
	small, err := encodeShard(&h, makeSamples(rand.New(rand.NewPCG(1, 1)), testLayout, 0, 3))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{golden, small, small[:80], []byte(Magic), nil} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		checkDecode(t, withHeaderCRC(b)) // reach the checks behind the CRC
	})
}

// withHeaderCRC returns a copy of b with a correct header CRC, where b is
// long enough to have one.
func withHeaderCRC(b []byte) []byte {
	if len(b) < prefixSize {
		return b
	}
	hs := int(le.Uint16(b[offHeaderSize:]))
	if hs < minHeaderSize || hs > len(b) {
		return b
	}
	b = bytes.Clone(b)
	le.PutUint32(b[hs-4:], crc32.Checksum(b[:hs-4], castagnoli))
	return b
}

func checkDecode(t *testing.T, b []byte) {
	h, samples, err := decodeShard(b)
	if err != nil {
		return
	}
	if fr, err := parseHeader(b, int64(len(b))); err != nil || fr.h.Count != len(samples) {
		t.Fatalf("decodeShard succeeded on a header that parses as %+v, %v", fr.h, err)
	}
	again, err := encodeShard(&h, samples)
	if err != nil {
		t.Fatalf("re-encoding a decoded shard: %v", err)
	}
	h2, samples2, err := decodeShard(again)
	if err != nil {
		t.Fatalf("decoding a re-encoded shard: %v", err)
	}
	if h2.Layout != h.Layout || len(samples2) != len(samples) {
		t.Fatalf("round trip changed the shard: %+v vs %+v", h2, h)
	}
	for i := range samples {
		if !bytes.Equal(AppendRecord(nil, &samples[i]), AppendRecord(nil, &samples2[i])) {
			t.Fatalf("round trip changed record %d", i)
		}
	}
}
