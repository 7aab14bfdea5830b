package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"

	"kumalak/train"
)

// The tests of this file hold the docs to their shape: a short README
// whose first lines run as written from a fresh clone, BENCHMARKS.md as
// one row a figure with its command, CPU and date, links that resolve,
// and TRAINING.md's table of every config key.

// repoRoot is the repository's root, relative to this package.
var repoRoot = filepath.Join("..", "..")

// docLimits are the most lines a front-door document may have.
var docLimits = map[string]int{"README.md": 200, "BENCHMARKS.md": 400}

// readmeRunnable is how many of README.md's first lines must run as
// written from a fresh clone (TestReadmeFirstLines).
const readmeRunnable = 30

func readRepo(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parseCommand checks a kumalak command line's arguments against the
// command tree without running it: the subcommand exists, its flags parse
// and its positional arguments are of the number it takes.
func parseCommand(args []string) error {
	root := newRoot()
	c, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if c == root {
		return fmt.Errorf("%q is not a kumalak command", args[0])
	}
	if c.HasSubCommands() && !c.Runnable() {
		return fmt.Errorf("%q needs a subcommand", c.CommandPath())
	}
	if err := c.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %w", c.CommandPath(), err)
	}
	if err := c.ValidateArgs(c.Flags().Args()); err != nil {
		return fmt.Errorf("%s: %w", c.CommandPath(), err)
	}
	return nil
}

func TestParseCommand(t *testing.T) {
	good := [][]string{
		{"play", "--game", "mangala", "--as", "b"},
		{"tablebase", "build", "--game", "mangala", "--stones", "8", "--out", "x"},
		{"arena", "--game", "togyz", "--a", "random", "--b", "greedy", "--cpuprofile", "p"},
	}
	for _, args := range good {
		if err := parseCommand(args); err != nil {
			t.Errorf("parseCommand(%q) = %v", args, err)
		}
	}
	bad := [][]string{{"plya"}, {"play", "--no-such-flag"}, {"tablebase"}, {"arena", "--games"}}
	for _, args := range bad {
		if err := parseCommand(args); err == nil {
			t.Errorf("parseCommand(%q) = nil, want an error", args)
		}
	}
}

func TestDocLengths(t *testing.T) {
	for name, limit := range docLimits {
		if n := strings.Count(readRepo(t, name), "\n"); n > limit {
			t.Errorf("%s has %d lines, at most %d: move the detail to docs/ (README) or docs/notes/ (BENCHMARKS)", name, n, limit)
		}
	}
}

// TestReadmeListsCommands checks that the README's table of commands
// names every subcommand, so that each is reachable from the front door.
func TestReadmeListsCommands(t *testing.T) {
	readme := readRepo(t, "README.md")
	for _, c := range newRoot().Commands() {
		if !strings.Contains(readme, "`"+c.Name()+"`") {
			t.Errorf("README.md does not name the command %s (its table of commands)", c.Name())
		}
	}
}

// mdTable is one Markdown table: its header cells and rows, with the line
// of each row.
type mdTable struct {
	header []string
	rows   [][]string
	lines  []int
}

// tableCell splits a table line into its cells ("\|" does not split).
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

var tableRule = regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)

// mdTables returns the tables of a Markdown text.
func mdTables(text string) []mdTable {
	lines := strings.Split(text, "\n")
	var tables []mdTable
	for i := 0; i+1 < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") || !tableRule.MatchString(strings.TrimSpace(lines[i+1])) {
			continue
		}
		tb := mdTable{header: tableCells(lines[i])}
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			tb.rows = append(tb.rows, tableCells(lines[j]))
			tb.lines = append(tb.lines, j+1)
		}
		tables = append(tables, tb)
		i = j
	}
	return tables
}

func column(header []string, name string) int {
	return slices.IndexFunc(header, func(h string) bool { return strings.EqualFold(h, name) })
}

var (
	isoDate  = regexp.MustCompile(`\b20\d\d-[01]\d-[0-3]\d\b`)
	codeSpan = regexp.MustCompile("`([^`]+)`")
	machine  = regexp.MustCompile(`(?m)^- \*\*([^*]+)\*\*:`)
	envWord  = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)
)

// TestBenchmarkRows checks that every row of every table of BENCHMARKS.md
// is a figure with its command, a CPU of the page's list of machines and
// the date it was measured, and that each command can run from the
// repository: a make target of the Makefile, a kumalak command that
// parses against the command tree, or a go command on packages that exist.
func TestBenchmarkRows(t *testing.T) {
	text := readRepo(t, "BENCHMARKS.md")
	var cpus []string
	for _, m := range machine.FindAllStringSubmatch(text, -1) {
		cpus = append(cpus, m[1])
	}
	if len(cpus) == 0 {
		t.Fatal("BENCHMARKS.md lists no machines (- **NAME**: ...)")
	}
	tables := mdTables(text)
	if len(tables) < 5 {
		t.Fatalf("BENCHMARKS.md has %d tables, want one an area", len(tables))
	}
	makefile := readRepo(t, "Makefile")
	rows := 0
	for _, tb := range tables {
		cmd, cpu, date := column(tb.header, "command"), column(tb.header, "CPU"), column(tb.header, "date")
		if cmd < 0 || cpu < 0 || date < 0 || column(tb.header, "value") < 0 {
			t.Errorf("BENCHMARKS.md table %q: want the columns figure, value, command, CPU and date", tb.header)
			continue
		}
		for i, row := range tb.rows {
			rows++
			where := fmt.Sprintf("BENCHMARKS.md:%d", tb.lines[i])
			if len(row) != len(tb.header) {
				t.Errorf("%s: %d cells, the header has %d", where, len(row), len(tb.header))
				continue
			}
			if !isoDate.MatchString(row[date]) {
				t.Errorf("%s: date %q is not a date (YYYY-MM-DD)", where, row[date])
			}
			if !slices.ContainsFunc(cpus, func(c string) bool { return strings.HasPrefix(row[cpu], c) }) {
				t.Errorf("%s: CPU %q is none of the page's machines %q", where, row[cpu], cpus)
			}
			spans := codeSpan.FindAllStringSubmatch(row[cmd], -1)
			if len(spans) == 0 {
				t.Errorf("%s: no command in %q", where, row[cmd])
			}
			for _, s := range spans {
				if err := checkBenchCommand(s[1], makefile); err != nil {
					t.Errorf("%s: %s: %v", where, s[1], err)
				}
			}
		}
	}
	if rows < 30 {
		t.Errorf("BENCHMARKS.md has %d figures", rows)
	}
}

// checkBenchCommand checks that a command line of BENCHMARKS.md can run
// from the repository's root.
func checkBenchCommand(line, makefile string) error {
	words := shellWords(line)
	for len(words) > 0 && envWord.MatchString(words[0]) {
		words = words[1:] // KUMALAK_KERNEL=avx2 ...
	}
	if len(words) == 0 {
		return fmt.Errorf("no command")
	}
	if args, ok := kumalakArgs(words); ok {
		return parseCommand(args)
	}
	switch words[0] {
	case "make":
		for _, w := range words[1:] {
			if !strings.Contains(w, "=") && !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(w)+`:`).MatchString(makefile) {
				return fmt.Errorf("the Makefile has no target %q", w)
			}
		}
		return nil
	case "go":
		for _, w := range words[1:] {
			if strings.HasPrefix(w, "./") {
				if _, err := os.Stat(filepath.Join(repoRoot, strings.TrimSuffix(w, "/..."))); err != nil {
					return fmt.Errorf("package %s: %v", w, err)
				}
			}
		}
		return nil
	}
	return fmt.Errorf("%q: want make, go or kumalak", words[0])
}

// TestNotesLinked checks that every dated note of docs/notes/ is listed in
// its README and explains at least one row of BENCHMARKS.md.
func TestNotesLinked(t *testing.T) {
	notes, err := filepath.Glob(filepath.Join(repoRoot, "docs", "notes", "20*.md"))
	if err != nil || len(notes) == 0 {
		t.Fatalf("no notes in docs/notes: %v", err)
	}
	index, bench := readRepo(t, "docs/notes/README.md"), readRepo(t, "BENCHMARKS.md")
	for _, n := range notes {
		name := filepath.Base(n)
		if !isoDate.MatchString(name[:10]) {
			t.Errorf("docs/notes/%s: want a name YYYY-MM-DD-topic.md", name)
		}
		if !strings.Contains(index, "("+name+")") {
			t.Errorf("docs/notes/%s is not listed in docs/notes/README.md", name)
		}
		if !strings.Contains(bench, "(docs/notes/"+name+")") {
			t.Errorf("docs/notes/%s is linked from no row of BENCHMARKS.md", name)
		}
	}
}

// mdLink matches a Markdown link or image target.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// linkedDocs are the documents whose links TestDocLinks follows.
var linkedDocs = []string{"README.md", "BENCHMARKS.md", "CONTRIBUTING.md", "docs/*.md", "docs/notes/*.md", "models/README.md"}

// TestDocLinks fails on a link or image of the documents that does not
// resolve: a missing file, or a heading anchor that a Markdown file lacks.
func TestDocLinks(t *testing.T) {
	var files []string
	for _, g := range linkedDocs {
		m, err := filepath.Glob(filepath.Join(repoRoot, g))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		anchors[path] = headingAnchors(string(b))
		return anchors[path]
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, f)
		for n, line := range strings.Split(string(b), "\n") {
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				full := f
				if path != "" {
					full = filepath.Join(filepath.Dir(f), path)
				}
				if _, err := os.Stat(full); err != nil {
					t.Errorf("%s:%d: link %s: no such file", rel, n+1, target)
					continue
				}
				if anchor != "" && strings.HasSuffix(full, ".md") && !anchorsOf(full)[anchor] {
					t.Errorf("%s:%d: link %s: no heading with that anchor", rel, n+1, target)
				}
			}
		}
	}
}

// headingAnchors returns the anchors a Markdown renderer gives the
// headings of text (GitHub's rule: lower case, punctuation dropped, spaces
// to hyphens, a repeated anchor numbered).
func headingAnchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestTrainingConfigKeys checks docs/TRAINING.md's table of config keys
// against train.DefaultConfig: every key once, with its default.
func TestTrainingConfigKeys(t *testing.T) {
	var node yaml.Node
	if err := node.Encode(train.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	var keys []string
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := prefix+n.Content[i].Value, n.Content[i+1]
			switch v.Kind {
			case yaml.MappingNode:
				walk(k+".", v)
				continue
			case yaml.SequenceNode:
				var items []string
				for _, c := range v.Content {
					items = append(items, c.Value)
				}
				want[k] = "[" + strings.Join(items, ", ") + "]"
			default:
				want[k] = v.Value
				if v.Value == "" {
					want[k] = `""`
				}
			}
			keys = append(keys, k)
		}
	}
	walk("", &node)
	var table *mdTable
	for _, tb := range mdTables(readRepo(t, "docs/TRAINING.md")) {
		if column(tb.header, "key") == 0 && column(tb.header, "default") == 1 {
			table = &tb
		}
	}
	if table == nil {
		t.Fatal("docs/TRAINING.md has no table with the columns key and default")
	}
	got := map[string]string{}
	for i, row := range table.rows {
		k, d := strings.Trim(row[0], "`"), strings.Trim(row[1], "`")
		if _, dup := got[k]; dup {
			t.Errorf("docs/TRAINING.md:%d: key %s twice", table.lines[i], k)
		}
		got[k] = d
		if w, ok := want[k]; !ok {
			t.Errorf("docs/TRAINING.md:%d: %s is not a config key", table.lines[i], k)
		} else if d != w {
			t.Errorf("docs/TRAINING.md:%d: %s defaults to %s, the table says %s", table.lines[i], k, w, d)
		}
	}
	for _, k := range keys {
		if _, ok := got[k]; !ok {
			t.Errorf("docs/TRAINING.md: config key %s (default %s) is missing from the table", k, want[k])
		}
	}
}

// TestReadmeFirstLines runs the commands of README.md's first
// readmeRunnable lines, in order, as a newcomer would in a fresh clone: a
// folder with the repository's files and no bin/ or runs/. A make target
// runs its recipe as `make -n` prints it: the build of bin/kumalak (made
// here as a script running this test binary, built from the same source),
// then its kumalak commands; other recipe lines (the test suite) are only
// checked to exist. bin/kumalak must be built before it is used, and a bare
// "kumalak" is not on a fresh clone's PATH. A kumalak command must succeed,
// or still be running without failure at docDeadline.
func TestReadmeFirstLines(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make:", err)
	}
	lines := codeLines(readRepo(t, "README.md"), readmeRunnable)
	dir := freshClone(t)
	var played, built bool
	for _, l := range lines {
		words := shellWords(l.text)
		if len(words) == 0 {
			continue
		}
		where := fmt.Sprintf("README.md:%d: %s", l.n, strings.Join(words, " "))
		var runs [][]string // kumalak argument lists to run
		switch {
		case words[0] == "make":
			out, err := exec.Command("make", append([]string{"-n", "-C", dir}, words[1:]...)...).CombinedOutput()
			if err != nil {
				t.Errorf("%s: make -n: %v\n%s", where, err, out)
				continue
			}
			for _, r := range strings.Split(string(out), "\n") {
				rw := shellWords(strings.TrimSpace(r))
				switch {
				case len(rw) == 5 && rw[0] == "go" && rw[1] == "build" && rw[3] == "bin/kumalak" && rw[4] == "./cmd/kumalak":
					writeBin(t, dir) // bin/kumalak: this binary
					built = true
				case len(rw) > 1 && rw[0] == "bin/kumalak":
					runs = append(runs, rw[1:])
				}
			}
		case words[0] == "bin/kumalak" || words[0] == "./bin/kumalak":
			if !built {
				t.Errorf("%s: bin/kumalak is used before a line builds it (make build)", where)
			}
			runs = append(runs, words[1:])
		case len(words) > 2 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/kumalak":
			runs = append(runs, words[3:])
		default:
			t.Errorf("%s: %s does not run from a fresh clone as written (write make, bin/kumalak or go run ./cmd/kumalak)", where, words[0])
		}
		for _, args := range runs {
			if len(args) > 0 && args[0] == "play" {
				played = true
			}
			r := runDoc(dir, docCommand{file: "README.md", line: l.n, args: args})
			switch {
			case r.err != nil:
				t.Errorf("%s: %v", where, r.err)
			case r.running && r.code == 2, !r.running && r.code != 0:
				t.Errorf("%s: kumalak %s: exit %d:\n%s", where, strings.Join(args, " "), r.code, r.out)
			}
		}
	}
	if !built || !played {
		t.Errorf("README.md's first %d lines must build the binary and play: built %v, played %v", readmeRunnable, built, played)
	}
}

// codeLine is one line of a Markdown code block.
type codeLine struct {
	n    int
	text string // the line, trimmed
}

// codeLines returns the command lines of the code blocks (indented by
// four spaces, or fenced) among the first max lines of text.
func codeLines(text string, max int) []codeLine {
	var out []codeLine
	fenced, prevBlank := false, true
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan() && n <= max; n++ {
		line := sc.Text()
		blank := strings.TrimSpace(line) == ""
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "```"):
			fenced = !fenced
		case fenced && !blank:
			out = append(out, codeLine{n, strings.TrimSpace(line)})
		case strings.HasPrefix(line, "    ") && !blank && (prevBlank || len(out) > 0 && out[len(out)-1].n == n-1):
			out = append(out, codeLine{n, strings.TrimSpace(line)})
		}
		prevBlank = blank
	}
	return out
}

// freshClone returns a folder that looks like a fresh clone: every
// top-level entry of the repository linked, but for what a build or a run
// writes and the files git ignores there.
func freshClone(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch name := e.Name(); {
		case name == "bin" || name == "runs" || name == ".git" || name == "node_modules" || strings.HasSuffix(name, ".test"):
		default:
			src, err := filepath.Abs(filepath.Join(repoRoot, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(src, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}
