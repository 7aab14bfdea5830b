package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The token comes from the flag, the file or, for a standalone server
// only, the environment; both a token and a file are refused.
func TestTokenSecret(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("  from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string {
		if k == TokenEnv {
			return "from-env"
		}
		return ""
	}
	cases := []struct {
		src  TokenSource
		want string
		err  string
	}{
		{TokenSource{Token: "t", URL: "nats://h:4222"}, "t", ""},
		{TokenSource{File: file}, "from-file", ""},
		{TokenSource{URL: "nats://h:4222"}, "from-env", ""},
		{TokenSource{}, "", ""},
		{TokenSource{URL: NoServer}, "", ""},
		{TokenSource{Token: "t", File: file}, "", "give one"},
		{TokenSource{File: filepath.Join(t.TempDir(), "none")}, "", "no such file"},
	}
	for _, c := range cases {
		got, err := c.src.Secret(env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %q, %v; want an error with %q", c.src, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%+v: %q, %v; want %q", c.src, got, err, c.want)
		}
	}
	if _, err := (TokenSource{Token: "t", File: file}).Secret(env); !errors.Is(err, ErrTokenSource) {
		t.Errorf("both given: %v, want ErrTokenSource", err)
	}
}

// A worker is who its credentials say, and any id or run given must
// agree; without credentials the id defaults to the host's and must be
// valid.
func TestResolveIdentity(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "wA.creds")
	cr, err := IssueCredentials(filepath.Join(dir, "cluster"), "wA", path, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		creds, id, run string
		wantID, wantRn string
		field          string // of the IdentityError; "" = none
		other          bool   // ErrOtherWorker
	}{
		{path, "", "", "wA", cr.Run, "", false},
		{path, "wA", cr.Run, "wA", cr.Run, "", false},
		{path, "wB", "", "", "", "creds", true},
		{path, "", "other-run", "", "", "creds", true},
		{filepath.Join(dir, "none.creds"), "", "", "", "", "creds", false},
		{"", "w1", "r1", "w1", "r1", "", false},
		{"", "bad id", "", "", "", "id", false},
		{"", LocalSource, "", "", "", "id", false},
		{"", "", "", DefaultWorkerID(), "", "", false},
	}
	for _, c := range cases {
		got, err := ResolveIdentity(c.creds, c.id, c.run)
		if c.field != "" {
			ie, ok := errors.AsType[*IdentityError](err)
			if !ok || ie.Field != c.field || errors.Is(err, ErrOtherWorker) != c.other {
				t.Errorf("%q %q %q: %v; want an IdentityError of %s (other worker %v)", c.creds, c.id, c.run, err, c.field, c.other)
			}
			continue
		}
		if err != nil || got.ID != c.wantID || got.Run != c.wantRn || (got.Creds != nil) != (c.creds != "") {
			t.Errorf("%q %q %q: %+v, %v; want %s of %q", c.creds, c.id, c.run, got, err, c.wantID, c.wantRn)
		}
	}
	if err := ValidWorker(DefaultWorkerID()); err != nil {
		t.Errorf("DefaultWorkerID %q: %v", DefaultWorkerID(), err)
	}
}

// A worker's settings are checked before it connects.
func TestWorkerConfigValidate(t *testing.T) {
	cases := []struct {
		cfg  WorkerConfig
		want string
	}{
		{WorkerConfig{ID: "w"}, ""},
		{WorkerConfig{ID: "w", Run: "r", Games: 5, Parallel: 2, Threads: 1, BatchSamples: 10}, ""},
		{WorkerConfig{ID: ""}, "want 1..64"},
		{WorkerConfig{ID: "w", Run: "a.b"}, "only letters"},
		{WorkerConfig{ID: "w", Games: -1}, "out of range"},
		{WorkerConfig{ID: "w", Threads: 257}, "out of range"},
		{WorkerConfig{ID: "w", BatchSamples: MaxBatchSamples + 1}, "out of range"},
	}
	for _, c := range cases {
		err := c.cfg.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}

// The progress line and the final account show every counter.
func TestWorkerProgressText(t *testing.T) {
	p := WorkerProgress{Run: "r1", Network: 3, Games: 7, Samples: 400, Batches: 5, Duplicates: 1, Lost: 2, Queued: 4}
	if got, want := p.Status(), "worker net v3  400 samples  5 batches  queued 4"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	if got, want := p.Summary(), "run r1, 7 games, 400 samples, 5 batches published (1 re-sent), 2 samples lost"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}

// The operator's words: the issued key and its server entry, the
// revocation's reach, the roster's table.
func TestCredentialsText(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cluster")
	var b strings.Builder
	r0, err := ReadRoster(RosterFile(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := r0.WriteTable(&b); err != nil || b.String() != "no credentials issued\n" {
		t.Errorf("no roster: %q, %v", b.String(), err)
	}
	path := filepath.Join(t.TempDir(), "wA.creds")
	cr, err := IssueCredentials(dir, "wA", path, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := cr.WriteIssued(&b, path); err != nil {
		t.Fatal(err)
	}
	pub, _ := cr.PublicKey()
	for _, w := range []string{"issued worker wA of run " + cr.Run + " the key " + pub + ": " + path, "--creds " + path, ServerConfUser(cr.Run, "wA", pub)} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("issued: no %q in\n%s", w, b.String())
		}
	}
	if err := RevokeCredentials(dir, "wA", time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if n := RevokedNote("wA"); !strings.Contains(n, "revoked worker wA") || !strings.Contains(n, RosterPoll.String()) {
		t.Errorf("revoked note %q", n)
	}
	b.Reset()
	if err := ListCredentials(dir, &b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "worker  key") ||
		!strings.Contains(lines[1], "2026-01-02T03:04:05Z") || !strings.HasSuffix(lines[1], "revoked 2026-01-03T00:00:00Z") {
		t.Errorf("roster table:\n%s", b.String())
	}
}

// A worker whose credentials are revoked while it runs stops and says
// why; one whose context ends returns nil.
func TestRunWorkerRevoked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cluster")
	cr, err := IssueCredentials(dir, "wA", filepath.Join(t.TempDir(), "wA.creds"), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, ServerConfig{Roster: RosterFile(dir)})
	run := func(ctx context.Context) (chan error, chan string) {
		done, started := make(chan error, 1), make(chan string, 1)
		go func() {
			_, err := RunWorker(ctx, WorkerRun{
				Conn:    ConnConfig{URL: s.URL(), Creds: &cr, Backoff: noRetry},
				Worker:  WorkerConfig{ID: "wA", Run: cr.Run},
				Started: func(_ *Worker, url string) { started <- url },
			})
			done <- err
		}()
		return done, started
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	done, started := run(ctx)
	if url := <-started; url == "" {
		t.Error("Started heard no URL")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ended by its context: %v, want nil", err)
	}
	done, started = run(testCtx(t))
	<-started
	if err := RevokeCredentials(dir, "wA", time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrRefused) {
			t.Fatalf("revoked: %v, want ErrRefused", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("the revoked worker did not stop")
	}
}

// The worker's bar counts its games and shows its status line.
func TestWorkerProgressBar(t *testing.T) {
	s := startServer(t, ServerConfig{})
	w, err := NewWorker(trainerDial(t, s.URL()), WorkerConfig{ID: "w1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, games := range []int{5, 0} {
		var b strings.Builder
		draw, finish := w.ProgressBar(&b, games)
		draw()
		finish()
		if !strings.Contains(b.String(), "worker net v0  0 samples  0 batches  queued 0") || !strings.HasSuffix(b.String(), "\n") {
			t.Errorf("%d games: %q", games, b.String())
		}
		if games > 0 && !strings.Contains(b.String(), "0/5") {
			t.Errorf("no count of 5 games: %q", b.String())
		}
	}
}
