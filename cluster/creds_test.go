package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

func TestRosterValidate(t *testing.T) {
	kp, _ := nkeys.CreateUser()
	key, _ := kp.PublicKey()
	kp2, _ := nkeys.CreateUser()
	key2, _ := kp2.PublicKey()
	revoked := time.Unix(1, 0)
	ok := func() *Roster {
		return &Roster{Version: 1, Run: "r1", Workers: []Credential{{Worker: "wA", Key: key}, {Worker: "wA", Key: key2, Revoked: &revoked}}}
	}
	if err := ok().Validate(); err != nil {
		t.Fatalf("a valid roster: %v", err)
	}
	for _, c := range []struct {
		change func(*Roster)
		want   string
	}{
		{func(r *Roster) { r.Version = 2 }, "version 2"},
		{func(r *Roster) { r.Run = "a.b" }, "run id"},
		{func(r *Roster) { r.Workers[0].Worker = LocalSource }, "trainer's own"},
		{func(r *Roster) { r.Workers[0].Key = "SU" + key[2:] }, "not a public user NKey"},
		{func(r *Roster) { r.Workers[1].Key = key }, "listed twice"},
		{func(r *Roster) { r.Workers[1].Revoked = nil }, "two active keys"},
	} {
		r := ok()
		c.change(r)
		if err := r.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %q", r, err, c.want)
		}
	}
}

// TestIssueRevoke: issuing writes the credentials (owner only, never over
// a file) and the public key to the roster; a second key for a worker
// needs the first revoked; revoking what is not active is an error; the
// roster holds only public keys.
func TestIssueRevoke(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cluster")
	out := filepath.Join(t.TempDir(), "wA.creds")
	now := time.Date(2026, 12, 6, 1, 0, 0, 0, time.UTC)
	c, err := IssueCredentials(dir, "wA", out, now)
	if err != nil {
		t.Fatal(err)
	}
	run, _ := RunID(dir)
	if info, err := os.Stat(out); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v, %v", info, err)
	}
	back, err := ReadWorkerCreds(out)
	if err != nil || back != c || c.Run != run || c.Worker != "wA" {
		t.Fatalf("read back %+v (%v), issued %+v for run %s", back, err, c, run)
	}
	if _, err := IssueCredentials(dir, "wB", out, now); err == nil {
		t.Error("issued over an existing file")
	}
	if _, err := IssueCredentials(dir, "wA", filepath.Join(t.TempDir(), "again"), now); err == nil || !strings.Contains(err.Error(), "revoke them first") {
		t.Errorf("a second active key: %v", err)
	}
	if err := RevokeCredentials(dir, "wZ", now); err == nil || !strings.Contains(err.Error(), "no active credentials") {
		t.Errorf("revoke an unknown worker: %v", err)
	}
	if err := RevokeCredentials(dir, "wA", now); err != nil {
		t.Fatal(err)
	}
	if _, err := IssueCredentials(dir, "wA", filepath.Join(t.TempDir(), "again"), now); err != nil {
		t.Errorf("a new key after revoking: %v", err)
	}
	r, err := ReadRoster(RosterFile(dir))
	if err != nil || len(r.Workers) != 2 || r.Workers[0].Revoked == nil || r.Workers[1].Revoked != nil {
		t.Fatalf("roster %+v (%v): want wA revoked, then wA active", r, err)
	}
	if pub, _ := c.PublicKey(); r.Workers[0].Key != pub {
		t.Errorf("roster key %s, the credentials' %s", r.Workers[0].Key, pub)
	}
	b, _ := os.ReadFile(RosterFile(dir))
	if strings.Contains(string(b), c.Seed) || strings.Contains(string(b), `"SU`) {
		t.Error("the roster holds a seed")
	}
	if err := os.WriteFile(filepath.Join(dir, "run-id"), []byte("rother\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := IssueCredentials(dir, "wC", filepath.Join(t.TempDir(), "c"), now); err == nil || !strings.Contains(err.Error(), "is for run") {
		t.Errorf("a roster of another run: %v", err)
	}
}

// TestRevokeCutsOffOne: revoking one worker's key, while the server runs,
// closes that worker's connection and refuses it from then on (its
// Refused hears why), while another worker keeps publishing; after a
// restart of the server (a trainer's restart) it is refused still.
func TestRevokeCutsOffOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cluster")
	creds := map[string]WorkerCreds{}
	for _, w := range []string{"wA", "wB"} {
		c, err := IssueCredentials(dir, w, filepath.Join(t.TempDir(), w+".creds"), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		creds[w] = c
	}
	run := creds["wA"].Run
	nats0 := filepath.Join(t.TempDir(), "nats")
	s1, err := StartServer(ServerConfig{Dir: nats0, Roster: RosterFile(dir), TrainerToken: trainerToken, Log: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	addr := s1.Addr()
	st := tinySettings(t, run)
	trainer := trainerDial(t, s1.URL())
	h := openHub(t, trainer, st, "", 0)
	refusals := make(chan error, 16)
	conn := func(w string) *nats.Conn {
		c := creds[w]
		return dial(t, ConnConfig{URL: s1.URL(), Creds: &c, Backoff: noRetry, Refused: func(err error) {
			select {
			case refusals <- err:
			default:
			}
		}})
	}
	a, b := conn("wA"), conn("wB")
	publish := func(nc *nats.Conn, w string, seq int) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := Publish(ctx, jsOf(t, nc), fakeBatch(st.Layout, run, w, w+".s."+string(rune('0'+seq)), 0, 2))
		return err
	}
	for _, w := range []string{"wA", "wB"} {
		if err := publish(map[string]*nats.Conn{"wA": a, "wB": b}[w], w, 1); err != nil {
			t.Fatalf("%s before the revocation: %v", w, err)
		}
	}
	if err := RevokeCredentials(dir, "wA", time.Now()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-refusals:
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "--creds") {
			t.Fatalf("refusal %v: want ErrRefused naming --creds", err)
		}
	case <-time.After(10 * RosterPoll):
		t.Fatal("the revoked worker was not cut off")
	}
	if a.IsConnected() {
		t.Fatal("the revoked worker is connected")
	}
	if err := publish(b, "wB", 2); err != nil || !b.IsConnected() {
		t.Fatalf("the other worker after the revocation: %v", err)
	}
	took := takeUntil(t, h, func(bs []*Batch) bool { return len(bs) == 3 })
	for _, bt := range took.Batches {
		if bt.ID == "wA.s.2" {
			t.Fatal("took a batch of the revoked worker published after its revocation")
		}
	}
	h.Close()
	s1.Close()
	s2 := startServer(t, ServerConfig{Dir: nats0, Listen: addr, Roster: RosterFile(dir)})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wa := creds["wA"]
	if _, err := Connect(ctx, ConnConfig{URL: s2.URL(), Creds: &wa}); !errors.Is(err, ErrRefused) {
		t.Fatalf("the revoked worker after a restart: %v, want a refusal", err)
	}
	eventually(t, "the other worker to reconnect", b.IsConnected)
	if err := publish(b, "wB", 3); err != nil {
		t.Fatalf("the other worker after the restart: %v", err)
	}
}

// FuzzParseRoster: ParseRoster never panics, and what it accepts is valid
// and reads back the same after writing.
func FuzzParseRoster(f *testing.F) {
	kp, _ := nkeys.CreateUser()
	key, _ := kp.PublicKey()
	f.Add([]byte(`{"version":1,"run":"r1","workers":[{"worker":"wA","key":"` + key + `","issued":"2026-12-06T01:00:00Z"}]}`))
	f.Add([]byte(`{"version":1,"run":"r1","workers":[]}`))
	f.Add([]byte(`{"version":1,"run":"r1","workers":[{"worker":"wA","key":"` + key + `","issued":"2026-12-06T01:00:00Z","revoked":"2026-12-06T02:00:00Z"}]} {}`))
	f.Add([]byte(`{"version":2}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRoster(b)
		if err != nil {
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("accepted an invalid roster: %v", err)
		}
		dir := t.TempDir()
		if err := writeRoster(dir, r); err != nil {
			t.Fatal(err)
		}
		again, err := ReadRoster(RosterFile(dir))
		if err != nil || len(again.Workers) != len(r.Workers) || again.Run != r.Run {
			t.Fatalf("read back %+v (%v), wrote %+v", again, err, r)
		}
	})
}

// FuzzParseWorkerCreds: ParseWorkerCreds never panics, and what it
// accepts has a user key and marshals back to credentials equal to it.
func FuzzParseWorkerCreds(f *testing.F) {
	kp, _ := nkeys.CreateUser()
	seed, _ := kp.Seed()
	good := WorkerCreds{Version: 1, Run: "r1", Worker: "wA", Seed: string(seed)}
	f.Add(good.Marshal())
	f.Add([]byte(`{"kumalak_worker_credentials":1,"run":"r1","worker":"wA","seed":"SAx"}`))
	f.Add([]byte(`{"kumalak_worker_credentials":1,"run":"r1","worker":"local","seed":""}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseWorkerCreds(b)
		if err != nil {
			return
		}
		if _, err := c.PublicKey(); err != nil {
			t.Fatalf("accepted credentials without a user key: %v", err)
		}
		if again, err := ParseWorkerCreds(c.Marshal()); err != nil || again != c {
			t.Fatalf("round trip: %+v (%v), want %+v", again, err, c)
		}
	})
}
