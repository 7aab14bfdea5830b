package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"kumalak/env"
)

// The small tablebase a bot uses with no set-up: --tablebase auto (the
// front ends' default) gives the agents of a game with tablebases the
// levels 0..AutoStones of that game, built once, on first use, into the
// user's cache folder. 16 stones are 30 MB and about 20 s of one core on
// the 2-core AMD EPYC of BENCHMARKS.md; with them the exact solver settles
// a 22-stone mangala position in 20 thousand nodes instead of 450 thousand
// (docs/TABLEBASE.md, "Exact endgames by default").
const (
	AutoStones = 16
	// Auto is the --tablebase value of the cached tablebase; "auto:N"
	// asks for N stones.
	Auto = "auto"
	// Off is the --tablebase value of none.
	Off = "off"
	// EnvTablebase names the environment variable that replaces the
	// front ends' default --tablebase (auto), e.g. off or auto:20.
	EnvTablebase = "KUMALAK_TABLEBASE"
	// EnvCache names the environment variable of the cache folder; unset:
	// kumalak under the user's cache folder (os.UserCacheDir).
	EnvCache = "KUMALAK_CACHE"
)

// CacheLog receives the notice and progress bar of a cached tablebase's
// build: a build is never silent. CacheBar, when set, draws the bar
// (commands set BuildBar; the static site's wasm, which builds no
// tablebase, links no bar).
var (
	CacheLog io.Writer = os.Stderr
	CacheBar func(w io.Writer, n int64) (add func(int64), done func())
)

// DefaultTablebase is the front ends' --tablebase default: $KUMALAK_TABLEBASE
// when set, else auto.
func DefaultTablebase() string {
	if v := os.Getenv(EnvTablebase); v != "" {
		return v
	}
	return Auto
}

// AutoSize reads a --tablebase value: the stones of the cached tablebase
// it asks for ("auto": AutoStones, "auto:N": N) and true, or false for any
// other value (a folder, off, empty). A bad N is an error.
func AutoSize(v string) (int, bool, error) {
	rest, ok := strings.CutPrefix(v, Auto)
	switch {
	case !ok || (rest != "" && rest[0] != ':'):
		return 0, false, nil
	case rest == "":
		return AutoStones, true, nil
	}
	n, err := strconv.Atoi(rest[1:])
	if err != nil || n < 0 || n > MaxStones {
		return 0, false, fmt.Errorf("tablebase %s: want auto or auto:N, N the stones (0..%d)", v, MaxStones)
	}
	return n, true, nil
}

// IsOff reports whether a --tablebase value asks for no tablebase.
func IsOff(v string) bool { return v == "" || v == Off || v == "none" }

// TablebaseDir resolves a --tablebase value (or a spec's tablebase key)
// for game: off, none or "": none; auto or auto:N: the cached tablebase
// (Cached, built on first use) of a game that has tablebases (classic
// mangala, whose searches probe it, and 6-house kalah, whose exact
// solver reads it), none for another game or when the cache cannot be
// built (said on CacheLog); anything else: the folder it names.
func TablebaseDir(game *env.Spec, v string) (string, error) {
	n, auto, err := AutoSize(v)
	switch {
	case err != nil:
		return "", err
	case IsOff(v):
		return "", nil
	case !auto:
		return v, nil
	case !HasTablebases(game):
		return "", nil
	}
	dir, err := Cached(context.Background(), game, n)
	if err != nil { // auto is a convenience: a cache that cannot be written costs the bot its tablebase, not the game
		fmt.Fprintf(CacheLog, "kumalak: playing without a tablebase: %v\n", err)
		return "", nil
	}
	return dir, nil
}

// OpenSetting opens the tablebase of a --tablebase value (or a spec's
// tablebase key) for game, resolved as TablebaseDir does: nil (and no
// error) for none; of auto:N the levels 0..N alone, whatever more the cache
// holds, so that a bot plays the same with the same setting whatever
// another command built into the cache.
func OpenSetting(game *env.Spec, v string) (*Tablebase, error) {
	dir, err := TablebaseDir(game, v)
	if err != nil || dir == "" {
		return nil, err
	}
	var tb *Tablebase
	if n, auto, _ := AutoSize(v); auto { // the cache: TablebaseDir gives it only to a game that has tablebases
		tb, err = OpenGame(dir, game.Facts.Tablebase, n)
	} else { // a folder: every level in it
		tb, err = OpenFor(game, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("tablebase %s: %w", v, err)
	}
	return tb, nil
}

// CacheRoot returns the folder of kumalak's cache: $KUMALAK_CACHE, else
// kumalak under os.UserCacheDir.
func CacheRoot() (string, error) {
	if v := os.Getenv(EnvCache); v != "" {
		return v, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("solve: no cache folder (set %s): %w", EnvCache, err)
	}
	return filepath.Join(d, "kumalak"), nil
}

// cacheMu makes one build of the cache at a time in a process: a server
// that starts several bots at once waits for the one build. ready holds
// the folders checked or built in this process, with their stones.
var (
	cacheMu sync.Mutex
	ready   = map[string]int{}
)

// Cached returns the folder of game's tablebase of levels 0..stones in
// the cache (CacheRoot), building the missing levels first, with a notice
// and a progress bar on CacheLog. A level whose file is corrupt or
// truncated is built again. Each level is written under a temporary name
// and renamed, so a build killed at any moment keeps the finished levels
// and the next use goes on from there; two processes building at once
// write the same bytes.
func Cached(ctx context.Context, game *env.Spec, stones int) (string, error) {
	if err := NoTablebases(game); err != nil {
		return "", err
	}
	kind := game.Facts.Tablebase
	root, err := CacheRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "tablebase", kind)
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if n, ok := ready[dir]; ok && n >= stones {
		return dir, nil
	}
	if err := dropBroken(dir, kind, stones); err != nil {
		return "", err
	}
	cfg := BuildConfig{Dir: dir, Game: kind, Stones: stones}
	pending, err := Pending(cfg)
	if err != nil {
		return "", err
	}
	if pending == 0 {
		ready[dir] = stones
		return dir, nil
	}
	fmt.Fprintf(CacheLog, "kumalak: building the %d-stone %s tablebase once, into %s (perfect endgames; %s=off skips it)\n",
		stones, kind, dir, EnvTablebase)
	done := func() {}
	if CacheBar != nil {
		cfg.Progress, done = CacheBar(CacheLog, int64(pending))
	}
	t0 := time.Now()
	_, err = Build(ctx, cfg)
	done()
	if err != nil {
		return "", fmt.Errorf("solve: the cached tablebase %s: %w", dir, err)
	}
	fmt.Fprintf(CacheLog, "kumalak: tablebase %s ready in %.1fs\n", dir, time.Since(t0).Seconds())
	ready[dir] = stones
	return dir, nil
}

// dropBroken removes the level files 0..stones of kind in dir that fail
// their check (a truncated or corrupt file), so that the build makes them
// again.
func dropBroken(dir, kind string, stones int) error {
	for s := 0; s <= stones; s++ {
		path := filepath.Join(dir, LevelName(kind, s))
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err == nil {
			if check(b, kind, s) == nil {
				continue
			}
			fmt.Fprintf(CacheLog, "kumalak: %s is damaged; building it again\n", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("solve: the cached tablebase: %w", err)
		}
	}
	return nil
}
