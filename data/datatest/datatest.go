// Package datatest holds helpers for the tests of the packages that write
// checksummed files (data's shards, net's model files, train's run
// folders): it imports only the standard library, so that data's own
// tests may use it too.
package datatest

import (
	"os"
	"testing"
)

// FlipByte corrupts the file at path by flipping one bit of the byte at
// off, counted from the end when off is negative. It fails t when the file
// cannot be read or written, or is shorter than off.
func FlipByte(t testing.TB, path string, off int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if off < 0 {
		off += len(b)
	}
	if off < 0 || off >= len(b) {
		t.Fatalf("datatest: flip byte %d of %s: the file has %d bytes", off, path, len(b))
	}
	b[off] ^= 0x40
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
