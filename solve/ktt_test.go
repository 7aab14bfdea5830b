package solve

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestBigTable stores and probes a table large enough for huge pages
// (bigBuckets, on Linux) at both ends and in between, twice over: the
// second table after the first is collected and its memory unmapped.
func TestBigTable(t *testing.T) {
	bits := 21 // 2^21 buckets of 32 bytes: hugeTable
	if int(unsafe.Sizeof(kbucket{}))<<bits < 64<<20 {
		t.Fatalf("a %d-bit table is smaller than huge pages need", bits)
	}
	for range 2 {
		tt := newKTable(bits)
		if len(tt.b) != 1<<bits {
			t.Fatalf("%d buckets, want %d", len(tt.b), 1<<bits)
		}
		for _, key := range []uint64{0x5, 1<<bits - 1, 1 << (bits - 1), 0xdeadbeef12345678} {
			tt.store(key, kval{lo: -3, hi: 5, move: 2, depth: exactDepth, work: 7})
			v, ok := tt.probe(key)
			if !ok || v.lo != -3 || v.hi != 5 || v.move != 2 {
				t.Errorf("key %#x: %+v %v", key, v, ok)
			}
		}
		if _, ok := tt.probe(0x77); ok {
			t.Error("an empty slot probed as found")
		}
		runtime.GC()
	}
	runtime.GC()
}
