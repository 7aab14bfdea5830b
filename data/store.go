package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Shard file names are "shard-" + the iteration in at least six digits + ".kshard".
const (
	shardPrefix = "shard-"
	shardExt    = ".kshard"
)

// ShardName returns the file name of the shard of an iteration,
// "shard-000042.kshard"; names sort by iteration up to 999999.
func ShardName(iteration int) string {
	return fmt.Sprintf("%s%06d%s", shardPrefix, iteration, shardExt)
}

// ParseShardName returns the iteration a shard file name stands for, and
// false for a name ShardName does not produce.
func ParseShardName(name string) (int, bool) {
	digits, ok := strings.CutPrefix(name, shardPrefix)
	if !ok {
		return 0, false
	}
	if digits, ok = strings.CutSuffix(digits, shardExt); !ok {
		return 0, false
	}
	it, err := strconv.Atoi(digits)
	if err != nil || it < 0 || it > maxIteration || ShardName(it) != name {
		return 0, false
	}
	return it, true
}

// ShardInfo is one shard file of a directory and its checked header.
type ShardInfo struct {
	Path   string
	Header Header
}

// ListShards returns the shards of dir in iteration order, with their
// checked headers. Files whose names end in ".kshard" but that ShardName
// does not produce are errors, as are unreadable headers, a shard whose
// header iteration differs from its name, and run totals that do not
// increase by at least each shard's count. Other files (such as the
// temporary files of an interrupted WriteShard) are ignored.
func ListShards(dir string) ([]ShardInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("data: list shards: %w", err)
	}
	var infos []ShardInfo
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), shardExt) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		it, ok := ParseShardName(e.Name())
		if !ok {
			return nil, fmt.Errorf("data: shard %s: unexpected name (want %s)", path, ShardName(0))
		}
		h, err := ReadShardHeader(path)
		if err != nil {
			return nil, err
		}
		if h.Iteration != it {
			return nil, fmt.Errorf("data: shard %s: %w: header iteration %d differs from the name", path, ErrCorrupt, h.Iteration)
		}
		infos = append(infos, ShardInfo{Path: path, Header: h})
	}
	slices.SortFunc(infos, func(a, b ShardInfo) int { return a.Header.Iteration - b.Header.Iteration })
	return infos, checkTotals(infos)
}

// checkTotals checks that known run totals leave room for each shard's count.
func checkTotals(infos []ShardInfo) error {
	var prev *ShardInfo
	for i := range infos {
		s := &infos[i]
		if s.Header.RunTotal == 0 {
			continue
		}
		if prev != nil && s.Header.RunTotal-int64(s.Header.Count) < prev.Header.RunTotal {
			return fmt.Errorf("data: shard %s: %w: run_total %d minus count %d is below run_total %d of %s",
				s.Path, ErrCorrupt, s.Header.RunTotal, s.Header.Count, prev.Header.RunTotal, filepath.Base(prev.Path))
		}
		prev = s
	}
	return nil
}

// runTotal returns the samples of the run: the newest shard's run total,
// or, if larger or unknown, the sum of the counts of the shards present.
func runTotal(infos []ShardInfo) int64 {
	var sum int64
	for _, s := range infos {
		sum += int64(s.Header.Count)
	}
	if len(infos) == 0 {
		return 0
	}
	return max(sum, infos[len(infos)-1].Header.RunTotal)
}

// LoadWindow rebuilds the window of a run from the shards in dir: it takes
// the run total from the newest shard and reads shards newest first until
// they cover the window size, then adds them oldest first. Every shard must
// have layout lay. Any unreadable, corrupt or mismatched shard is an error,
// never skipped; a missing dir is an error wrapping fs.ErrNotExist.
func LoadWindow(dir string, cfg WindowConfig, lay Layout) (*Window, error) {
	w, err := NewWindow(cfg, lay)
	if err != nil {
		return nil, err
	}
	infos, err := ListShards(dir)
	if err != nil {
		return nil, err
	}
	total := runTotal(infos)
	size, got, first := cfg.Size(total), 0, len(infos)
	for first > 0 && got < size {
		first--
		got += infos[first].Header.Count
	}
	w.total = total - int64(got)
	for _, s := range infos[first:] {
		if err := w.load(s); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func (w *Window) load(s ShardInfo) error {
	h, samples, err := ReadShard(s.Path)
	if err != nil {
		return err
	}
	if err := w.lay.check(h.Layout); err != nil {
		return fmt.Errorf("data: shard %s: %w", s.Path, err)
	}
	if h.Count != s.Header.Count {
		return fmt.Errorf("data: shard %s: %w: count changed from %d to %d while loading", s.Path, ErrCorrupt, s.Header.Count, h.Count)
	}
	w.Add(samples)
	return nil
}

// AddShard writes samples as the shard of h.Iteration in dir, recording the
// window's new run total in the header, then adds them to the window. An
// empty h.Layout takes the window's. It refuses to overwrite an existing
// shard (its samples are already counted) and leaves the window unchanged
// if the write fails.
func (w *Window) AddShard(dir string, h Header, samples []Sample) error {
	if h.Layout == (Layout{}) {
		h.Layout = w.lay
	}
	path := filepath.Join(dir, ShardName(h.Iteration))
	if err := w.lay.check(h.Layout); err != nil {
		return fmt.Errorf("data: write shard %s: %w", path, err)
	}
	switch _, err := os.Lstat(path); {
	case err == nil:
		return fmt.Errorf("data: write shard %s: exists already", path)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("data: write shard: %w", err)
	}
	h.RunTotal = w.total + int64(len(samples))
	if err := WriteShard(path, h, samples); err != nil {
		return err
	}
	w.Add(samples)
	return nil
}

// Prune removes the shards of dir whose samples all lie outside the window
// LoadWindow(dir, cfg, …) would build, except the newest keep of those, and
// returns the paths it removed. The window such a load builds is the same
// after pruning as before. It refuses to prune when the newest shard does
// not record the run total, which pruning would otherwise shrink.
func Prune(dir string, cfg WindowConfig, keep int) ([]string, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if keep < 0 {
		return nil, fmt.Errorf("data: prune %s: keep %d is negative", dir, keep)
	}
	infos, err := ListShards(dir)
	if err != nil || len(infos) == 0 {
		return nil, err
	}
	if newest := infos[len(infos)-1]; newest.Header.RunTotal == 0 {
		return nil, fmt.Errorf("data: prune %s: newest shard %s records no run_total", dir, filepath.Base(newest.Path))
	}
	size, newer, outside := cfg.Size(runTotal(infos)), 0, 0
	var removed []string
	for i := len(infos) - 1; i >= 0; i-- {
		if newer >= size {
			if outside++; outside > keep {
				if err := os.Remove(infos[i].Path); err != nil {
					return removed, fmt.Errorf("data: prune: %w", err)
				}
				removed = append(removed, infos[i].Path)
			}
		}
		newer += infos[i].Header.Count
	}
	return removed, nil
}
