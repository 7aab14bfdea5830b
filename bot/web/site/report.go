package site

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"path/filepath"
)

// WriteText says what was written and how to publish it: each file with
// its size and gzipped size, the total a host serves, each game's bot, and
// where to open the page.
func (r Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w) // keeps the first write error, returned by Flush
	w = bw
	total, gz, wasmGz := 0, 0, 0
	for _, f := range r.Files {
		if f.Name == BundleFile {
			continue // only file:// reads it
		}
		total += f.Size
		gz += f.Gzip
		if f.Name == WasmFile {
			wasmGz = f.Gzip
		}
	}
	fmt.Fprintf(w, "wrote %s: %d files\n", r.Dir, len(r.Files))
	for _, f := range r.Files {
		if f.Name == BundleFile {
			fmt.Fprintf(w, "  %-22s %9d bytes (read only from file://)\n", f.Name, f.Size)
			continue
		}
		fmt.Fprintf(w, "  %-22s %9d bytes, %9d gzipped\n", path.Clean(f.Name), f.Size, f.Gzip)
	}
	fmt.Fprintf(w, "served over http(s): %.1f MB, %.1f MB gzipped (the wasm %.1f MB gzipped)\n", mb(total), mb(gz), mb(wasmGz))
	for _, g := range r.Games {
		fmt.Fprintf(w, "  %-13s %s\n", g.Game, g.Agent)
	}
	fmt.Fprintf(w, "open %s in a browser, or upload the folder to any static web host\n", filepath.Join(r.Dir, "index.html"))
	return bw.Flush()
}

func mb(n int) float64 { return float64(n) / 1e6 }
