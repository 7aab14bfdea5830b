package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kumalak/cluster"
	"kumalak/solve"
	"kumalak/train"
)

// The documents whose code blocks TestDocCommands runs, relative to the
// repository root.
var docGlobs = []string{"README.md", "docs/*.md"}

// docDeadline bounds each documented command: one still running then (a
// full training run, a server, a long match) is interrupted, and passes if
// it had not failed before. A transcript must finish: it has
// transcriptDeadline.
const (
	docDeadline        = 1500 * time.Millisecond
	transcriptDeadline = 60 * time.Second
)

// docParallel is how many documented commands run at once: most of them
// wait out their deadline, so more than the cores.
const docParallel = 4

// docCommand is one command line found in a document's code block.
type docCommand struct {
	file string   // document, relative to the repository root
	line int      // 1-based line number
	args []string // the words after "kumalak"
	want []string // for a "$ kumalak ..." transcript: the lines printed
}

func (d docCommand) String() string {
	return fmt.Sprintf("%s:%d: kumalak %s", d.file, d.line, strings.Join(d.args, " "))
}

// TestDocCommands runs every "kumalak ..." line of the code blocks of
// README.md and docs/*.md, and of the commands' --help examples, as written
// (but for the port of --addr: see freePort), docParallel at a time, each
// as its own process in a fresh folder holding the
// repository's configs/ and docs/, a trained tiny run in runs/togyz (with best.kmodel
// and export.kmodel), togyz.kmodel and a bin/kumalak that is this binary
// (except for train, which gets no run). A command must succeed, or still
// be running without failure at docDeadline; a transcript line
// "$ kumalak ..." must print exactly the lines below it (stdout and stderr
// together), whatever its exit status.
func TestDocCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a tiny run and runs every documented command")
	}
	t.Parallel() // mostly waiting out deadlines: beside the tests that compute
	cmds := docCommands(t)
	if len(cmds) < 15 {
		t.Fatalf("found only %d documented commands: %v", len(cmds), cmds)
	}
	fixture := docFixture(t)
	results := make([]docResult, len(cmds))
	sem := make(chan struct{}, docParallel)
	var wg sync.WaitGroup
	for i, c := range cmds {
		dir := t.TempDir()
		copyFixture(t, fixture, dir, c.args[0] != "train")
		presume(t, dir, c.args)
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = runDoc(dir, c)
		})
	}
	wg.Wait()
	for i, c := range cmds {
		t.Run(fmt.Sprintf("%s:%d", c.file, c.line), func(t *testing.T) {
			r := results[i]
			t.Logf("exit %d, still running at the deadline: %v\n%s", r.code, r.running, r.out)
			switch {
			case r.err != nil:
				t.Errorf("%v: %v", c, r.err)
			case c.want != nil:
				if got := strings.Split(strings.TrimRight(r.out, "\n"), "\n"); !equalLines(got, c.want) {
					t.Errorf("%v printed\n%s\nwant\n%s", c, r.out, strings.Join(c.want, "\n"))
				}
			case r.running && r.code == 2:
				t.Errorf("%v: refused its input when stopped (exit 2):\n%s", c, r.out)
			case !r.running && r.code != 0:
				t.Errorf("%v: exit %d:\n%s", c, r.code, r.out)
			}
		})
	}
}

// TestDocCommandsFound pins the extraction: synopsis forms would not run
// as written, and an absolute path would write outside the test's folder,
// so no documented command may use them.
func TestDocCommandsFound(t *testing.T) {
	for _, c := range docCommands(t) {
		for _, a := range c.args {
			// What plays a model names one make run writes (best.kmodel),
			// not the file kumalak export alone writes.
			if len(c.args) > 0 && c.args[0] != "export" && c.args[0] != "info" && strings.HasSuffix(a, "/export.kmodel") {
				t.Errorf("%v: %q is written by kumalak export only; make run writes runs/<game>/best.kmodel", c, a)
			}
			if strings.ContainsAny(a, "[]|<>…") && !strings.Contains(a, "=") {
				t.Errorf("%v: %q is a synopsis, not a runnable argument", c, a)
			}
			if filepath.IsAbs(a) {
				t.Errorf("%v: %q is outside the folder the command runs in", c, a)
			}
		}
		if err := parseCommand(c.args); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
	if got := shellWords(`kumalak arena --a engine:cmd='./x --d 3' --b "r s" # c`); !equalLines(got, []string{"kumalak", "arena", "--a", "engine:cmd=./x --d 3", "--b", "r s"}) {
		t.Errorf("shellWords = %q", got)
	}
	got := parseDoc("x.md", "text kumalak perft\n\n    kumalak show --game 'a b'  # note\n    $ kumalak replay 9\n    out 1\n    out 2\n\n```\nkumalak info \"m.kmodel\"\n```\n\n    bin/kumalak play --as b\n    go run ./cmd/kumalak perft\n    make build\n")
	want := []string{"x.md:3: kumalak show --game a b", "x.md:4: kumalak replay 9", "x.md:9: kumalak info m.kmodel", "x.md:12: kumalak play --as b", "x.md:13: kumalak perft"}
	if len(got) != len(want) {
		t.Fatalf("parseDoc = %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("parseDoc[%d] = %v, want %s", i, got[i], want[i])
		}
	}
	if !equalLines(got[1].want, []string{"out 1", "out 2"}) || got[0].want != nil {
		t.Errorf("transcripts: %q, %q", got[0].want, got[1].want)
	}
}

// docCommands returns the commands of every document of docGlobs and of
// every subcommand's --help examples.
func docCommands(t *testing.T) []docCommand {
	t.Helper()
	var cmds []docCommand
	for _, g := range docGlobs {
		files, err := filepath.Glob(filepath.Join("..", "..", g))
		if err != nil || len(files) == 0 {
			t.Fatalf("docs %s: %v", g, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), f)
			cmds = append(cmds, parseDoc(filepath.ToSlash(rel), string(b))...)
		}
	}
	for _, c := range newRoot().Commands() {
		for i, line := range strings.Split(c.Example, "\n") {
			if words := shellWords(strings.TrimSpace(line)); len(words) > 1 && words[0] == "kumalak" {
				cmds = append(cmds, docCommand{file: "kumalak " + c.Name() + " --help", line: i + 1, args: words[1:]})
			}
		}
	}
	return cmds
}

// parseDoc returns the kumalak command lines of the code blocks (indented
// by four spaces, or fenced by ```) of a Markdown text. A "# ..." comment
// ends a line; a line "$ kumalak ..." is a transcript, followed by what it
// prints up to a blank line or the next "$ " line.
func parseDoc(file, text string) []docCommand {
	var cmds []docCommand
	fenced, indented, prevBlank := false, false, true
	var open *docCommand // the transcript taking output lines
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		blank := strings.TrimSpace(line) == ""
		code, isCode := line, fenced
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced, open, isCode = !fenced, nil, false
		case fenced:
		case blank:
		case strings.HasPrefix(line, "    ") && (indented || prevBlank):
			code, isCode, indented = line[4:], true, true
		default:
			indented = false
		}
		prevBlank = blank
		raw := strings.TrimRight(code, " ")
		code = strings.TrimSpace(code)
		if !isCode || code == "" {
			open = nil
			continue
		}
		transcript := strings.HasPrefix(code, "$ ")
		if open != nil && !transcript {
			open.want = append(open.want, raw) // indentation kept: boards are drawn
			continue
		}
		open = nil
		args, ok := kumalakArgs(shellWords(strings.TrimPrefix(code, "$ ")))
		if !ok {
			continue
		}
		cmds = append(cmds, docCommand{file: file, line: n, args: args})
		if transcript {
			open = &cmds[len(cmds)-1]
			open.want = []string{}
		}
	}
	return cmds
}

// kumalakArgs returns the arguments of a command line that runs kumalak:
// "kumalak ...", "bin/kumalak ...", "./bin/kumalak ..." or
// "go run ./cmd/kumalak ...", with at least one argument.
func kumalakArgs(words []string) ([]string, bool) {
	switch {
	case len(words) >= 2 && (words[0] == "kumalak" || words[0] == "bin/kumalak" || words[0] == "./bin/kumalak"):
		return words[1:], true
	case len(words) >= 4 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/kumalak":
		return words[3:], true
	}
	return nil, false
}

// shellWord matches one word of a command line, quoted parts included;
// shellQuote matches one quoted part.
var (
	shellWord  = regexp.MustCompile(`(?:'[^']*'|"[^"]*"|[^\s'"])+`)
	shellQuote = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)
)

// shellWords splits a command line as a POSIX shell would for the simple
// cases documents use: words separated by blanks, '...' and "..." quoting,
// and a word starting with # beginning a comment.
func shellWords(s string) []string {
	var words []string
	for _, w := range shellWord.FindAllString(s, -1) {
		if strings.HasPrefix(w, "#") {
			break
		}
		words = append(words, shellQuote.ReplaceAllString(w, "$1$2"))
	}
	return words
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.TrimRight(a[i], " ") != strings.TrimRight(b[i], " ") {
			return false
		}
	}
	return true
}

// freePort returns args with the value of --addr or --listen replaced by
// 127.0.0.1:0, so that a port already in use on the test machine fails no
// documented server, and a --nats URL on loopback by one at a port nothing
// listens on, so that no documented worker joins a trainer that happens to
// run on the test machine.
func freePort(args []string) []string {
	out := slices.Clone(args)
	for i := range out {
		if i+1 == len(out) {
			break
		}
		switch v := out[i+1]; {
		case out[i] == "--addr" || out[i] == "--listen":
			out[i+1] = "127.0.0.1:0"
		case out[i] == "--nats" && (strings.Contains(v, "://127.0.0.1:") || strings.Contains(v, "://localhost:")):
			out[i+1] = "nats://" + unusedAddr()
		}
	}
	return out
}

// unusedAddr returns a loopback address that nothing listened on a moment
// ago ("127.0.0.1:1" when none can be found).
func unusedAddr() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "127.0.0.1:1"
	}
	defer l.Close()
	return l.Addr().String()
}

// docResult is how one documented command ended: its exit status (-1
// when a signal ended it), stdout and stderr together, and whether it was
// still running at its deadline.
type docResult struct {
	code    int
	out     string
	running bool
	err     error // the command could not be started
}

// runDoc runs the command as bin/kumalak of dir would (this test binary as
// the command, in dir, with empty standard input), interrupting it at its
// deadline (killing it when it does not end within 10 s of that).
func runDoc(dir string, c docCommand) docResult {
	self, err := os.Executable()
	if err != nil {
		return docResult{err: err}
	}
	cmd := exec.Command(self, freePort(c.args)...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), asMainEnv+"=1")
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Start(); err != nil {
		return docResult{err: err}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := docDeadline
	if c.want != nil {
		deadline = transcriptDeadline
	}
	running := false
	select {
	case <-done:
	case <-time.After(deadline):
		running = true
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	return docResult{code: cmd.ProcessState.ExitCode(), out: buf.String(), running: running}
}

// docFixture trains the tiny config into runs/togyz of a new folder,
// exports it there as runs/togyz/export.kmodel and togyz.kmodel, and builds
// small mangala and kalah tablebases in tb/mangala and tb/kalah (the
// documented builds outlast the deadline; the documented positions have
// fewer stones).
func docFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := filepath.Join(dir, "runs", "togyz")
	if err := os.CopyFS(run, os.DirFS(tinyRun(t).dir)); err != nil {
		t.Fatal(err)
	}
	steps := [][]string{
		{"export", "--run", run},
		{"export", "--run", run, "--out", filepath.Join(dir, "togyz.kmodel")},
		{"tablebase", "build", "--game", "mangala", "--stones", "10", "--out", filepath.Join(dir, "tb", "mangala"), "--quiet"},
		{"tablebase", "build", "--game", "kalah", "--stones", "8", "--out", filepath.Join(dir, "tb", "kalah"), "--quiet"},
	}
	for _, s := range steps {
		if code, out, errs := kumalak(t, s...); code != 0 {
			t.Fatalf("fixture %v: exit %d\n%s%s", s, code, out, errs)
		}
	}
	return dir
}

// tinyTrained is the tiny config trained once for the tests that need a
// run (TestDocCommands, TestTrainExportInfo): its folder, which no test
// changes (each copies it), and how the training ended.
type tinyTrained struct {
	dir       string
	code      int
	out, errs string
	once      sync.Once
	root      string // a folder of the test binary, removed by TestMain
}

var tiny tinyTrained

// tinyRun trains configs/tiny.yaml the first time it is called, and
// returns that run; the run's folder lasts as long as the test binary.
func tinyRun(t *testing.T) *tinyTrained {
	t.Helper()
	tiny.once.Do(func() {
		root, err := os.MkdirTemp("", "kumalak-tiny-")
		if err != nil {
			tiny.code, tiny.errs = -1, err.Error()
			return
		}
		tiny.root, tiny.dir = root, filepath.Join(root, "tiny")
		tiny.code, tiny.out, tiny.errs = kumalak(t, "train", "--config", "../../configs/tiny.yaml", "--run", tiny.dir, "--quiet")
	})
	if tiny.code != 0 {
		t.Fatalf("train the tiny run: exit %d\n%s\n%s", tiny.code, tiny.out, tiny.errs)
	}
	return &tiny
}

// copyFixture makes dst a folder for one documented command: configs/ and
// docs/ linked from the repository, bin/kumalak running this test binary as the
// command, and, with run, a copy of the fixture's run and model.
func copyFixture(t *testing.T, fixture, dst string, run bool) {
	t.Helper()
	for _, d := range []string{"configs", "docs"} { // docs/examples holds the sample records
		src, err := filepath.Abs(filepath.Join("..", "..", d))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(src, filepath.Join(dst, d)); err != nil {
			t.Fatal(err)
		}
	}
	linkModels(t, dst)
	writeBin(t, dst)
	if run {
		if err := os.CopyFS(dst, os.DirFS(fixture)); err != nil {
			t.Fatal(err)
		}
	}
}

// linkModels makes dst/models hold a link to each shipped model (the
// docs' --init models/GAME.kmodel): links, not the folder, so that a
// command that writes there replaces a link, never the repository's file.
func linkModels(t *testing.T, dst string) {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", "..", "models"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(src, "*.kmodel"))
	if err != nil || len(files) == 0 {
		t.Fatalf("models: %v, %v", files, err)
	}
	if err := os.Mkdir(filepath.Join(dst, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.Symlink(f, filepath.Join(dst, "models", filepath.Base(f))); err != nil {
			t.Fatal(err)
		}
	}
}

// writeBin writes dst/bin/kumalak, a script that runs this test binary as
// the kumalak command.
func writeBin(t *testing.T, dst string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\n%s=1 exec '%s' \"$@\"\n", asMainEnv, self)
	if err := os.MkdirAll(filepath.Join(dst, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "bin", "kumalak"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// presume gives a documented command, in its fresh folder dir, the
// credentials it presumes issued: a worker's --creds file (for the run in
// runs/togyz), or the worker a revoke names.
func presume(t *testing.T, dir string, args []string) {
	t.Helper()
	issue := func(id, out string) {
		if _, err := cluster.IssueCredentials(train.Dir(filepath.Join(dir, "runs", "togyz")).Cluster(), id, out, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i+1 < len(args); i++ {
		switch {
		case args[0] == "worker" && args[i] == "--creds":
			issue(strings.TrimSuffix(filepath.Base(args[i+1]), ".creds"), filepath.Join(dir, args[i+1]))
		case args[0] == "worker-credentials" && args[1] == "revoke" && args[i] == "--id":
			issue(args[i+1], filepath.Join(t.TempDir(), "creds"))
		}
	}
}

// asMainEnv set in the environment makes this test binary run as the
// kumalak command (bin/kumalak of copyFixture, for engine:cmd=... specs).
const asMainEnv = "KUMALAK_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		root := newRoot()
		root.SetArgs(os.Args[1:])
		os.Exit(run(root))
	}
	// The commands' text follows the locale (bot/words): the tests read
	// English whatever the machine's, unless a test sets its own.
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANGUAGE"} {
		os.Unsetenv(v)
	}
	os.Setenv("LANG", "C.UTF-8")
	// The front ends' default tablebase (auto) is built into a cache of
	// the tests' own, 8 stones (a few milliseconds) instead of 16.
	cache, err := os.MkdirTemp("", "kumalak-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv(solve.EnvCache, cache)
	os.Setenv(solve.EnvTablebase, "auto:8")
	code := m.Run()
	if tiny.root != "" {
		os.RemoveAll(tiny.root)
	}
	os.RemoveAll(cache)
	os.Exit(code)
}

// TestNoOutsideReferences fails when a file of the repository points at a
// document outside it: everything a reader needs is in the repository.
func TestNoOutsideReferences(t *testing.T) {
	root := filepath.Join("..", "..")
	outside := []string{"../" + "shared", "the " + "brief", "STYLE" + ".md"}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "bin" || name == "runs") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() { // a link (a local tb/ to a tablebase elsewhere) is no file of the repository
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".yaml", ".js", ".html", ".css", ".json", ".txt", "":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lower := bytes.ToLower(b)
		for _, o := range outside {
			if i := bytes.Index(lower, bytes.ToLower([]byte(o))); i >= 0 {
				line := 1 + bytes.Count(b[:i], []byte("\n"))
				t.Errorf("%s:%d refers to %q, outside the repository", path, line, o)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
