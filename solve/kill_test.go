package solve

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestBuildKilled runs a build in a child process, kills it with SIGKILL
// once level 9 is on disk, and checks that every level file left is whole
// and that a second build resumes and gives the same files as an unbroken
// one.
func TestBuildKilled(t *testing.T) {
	if dir := os.Getenv("SOLVE_KILL_CHILD"); dir != "" {
		_, err := Build(context.Background(), BuildConfig{Dir: dir, Stones: 16})
		t.Fatalf("the child build should have been killed: %v", err)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuildKilled$")
	cmd.Env = append(os.Environ(), "SOLVE_KILL_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	nine := filepath.Join(dir, LevelName(MangalaTB, 9))
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if ok, _ := exists(nine); ok {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("level 9 never appeared")
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	tb, err := Open(dir, -1)
	if err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	kept := tb.Stones()
	tb.Close()
	stats, err := Build(context.Background(), BuildConfig{Dir: dir, Stones: sharedStones})
	if err != nil || kept < 9 || !stats[kept].Kept || (kept < sharedStones && stats[kept+1].Kept) {
		t.Fatalf("resume after the kill (levels 0..%d kept): %v", kept, err)
	}
	for s := 0; s <= sharedStones; s++ {
		a, _ := os.ReadFile(filepath.Join(dir, LevelName(MangalaTB, s)))
		b, _ := os.ReadFile(filepath.Join(sharedDir(t), LevelName(MangalaTB, s)))
		if !bytes.Equal(a, b) {
			t.Errorf("level %d differs from an unbroken build", s)
		}
	}
}
