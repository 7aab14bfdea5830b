package datatest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFlipByte(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte{1, 2, 3, 4}, 0o644); err != nil {
		t.Fatal(err)
	}
	FlipByte(t, path, 1)
	FlipByte(t, path, -1)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := []byte{1, 2 ^ 0x40, 3, 4 ^ 0x40}; string(b) != string(want) {
		t.Errorf("after two flips: %v, want %v", b, want)
	}
}
