package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedFilesUpToDate fails when the committed kernels differ from
// what the generator writes: run go generate ./net after changing it.
func TestGeneratedFilesUpToDate(t *testing.T) {
	asm, decl := generate()
	for path, want := range map[string][]byte{"../../kernel_amd64.s": asm, "../../kernel_decl_amd64.go": decl} {
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what kernelgen writes: run go generate ./net", path)
		}
	}
}
