package data

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// WriteFile writes b to path atomically and durably: renameio writes a
// temporary file in the same directory (".<base>.tmp-*", which no reader
// takes for a shard), syncs it and renames it over path; then the
// directory itself is synced, so that the rename survives a power loss
// (renameio leaves that to its caller). A crash leaves either the old file
// or the new one, never a partial one. The file is readable by everyone
// (0644).
func WriteFile(path string, b []byte) error {
	if err := renameio.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir syncs a directory, making the renames and removals in it durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("data: sync directory: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("data: sync directory %s: %w", dir, err)
	}
	return nil
}
