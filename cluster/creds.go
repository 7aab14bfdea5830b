package cluster

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nats-io/nkeys"

	"kumalak/data"
)

// A worker's identity is a user NKey of its own, issued for one worker id
// of one run (docs/DISTRIBUTED.md, "Credentials"). The trainer's run folder
// keeps the public keys in its roster (RosterFile); the worker keeps the
// seed in its credentials file (WorkerCreds). The embedded server admits
// the holder of an active key with that worker's rights only
// (WorkerPermissions), and rereads the roster every RosterPoll, so that an
// issued key works and a revoked one is cut off while the trainer runs.

// RosterVersion is the version of the roster file's format.
const RosterVersion = 1

// RosterPoll is how often the embedded server rereads the roster.
const RosterPoll = time.Second

// Roster is the list of a run's worker credentials, revoked ones included.
type Roster struct {
	Version int          `json:"version"` // RosterVersion
	Run     string       `json:"run"`     // the run every credential is for
	Workers []Credential `json:"workers"` // in the order issued
}

// Credential is one issued worker key: the worker id it publishes as, its
// public user NKey ("U..."), when it was issued, and when it was revoked
// (nil while active).
type Credential struct {
	Worker  string     `json:"worker"`
	Key     string     `json:"key"`
	Issued  time.Time  `json:"issued"`
	Revoked *time.Time `json:"revoked,omitempty"`
}

// RosterFile is the roster's path in a run's cluster folder.
func RosterFile(dir string) string { return filepath.Join(dir, "workers.json") }

// Validate names the first thing wrong: the version, the run id, a worker
// id, a key that is not a public user NKey, a key listed twice, or a
// worker with two active keys.
func (r *Roster) Validate() error {
	if r.Version != RosterVersion {
		return fmt.Errorf("cluster: roster: version %d, this build reads %d", r.Version, RosterVersion)
	}
	if err := ValidName("run", r.Run); err != nil {
		return fmt.Errorf("cluster: roster: %w", err)
	}
	keys, active := map[string]bool{}, map[string]bool{}
	for i, c := range r.Workers {
		switch {
		case ValidWorker(c.Worker) != nil:
			return fmt.Errorf("cluster: roster: entry %d: %w", i+1, ValidWorker(c.Worker))
		case !nkeys.IsValidPublicUserKey(c.Key):
			return fmt.Errorf("cluster: roster: entry %d (worker %s): %q is not a public user NKey (U...)", i+1, c.Worker, c.Key)
		case keys[c.Key]:
			return fmt.Errorf("cluster: roster: entry %d (worker %s): key %s listed twice", i+1, c.Worker, c.Key)
		case c.Revoked == nil && active[c.Worker]:
			return fmt.Errorf("cluster: roster: entry %d: worker %s holds two active keys", i+1, c.Worker)
		}
		keys[c.Key] = true
		active[c.Worker] = active[c.Worker] || c.Revoked == nil
	}
	return nil
}

// ParseRoster decodes a roster strictly (unknown fields are an error) and
// validates it.
func ParseRoster(b []byte) (*Roster, error) {
	var r Roster
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("cluster: roster: %w", err)
	}
	if dec.More() {
		return nil, errors.New("cluster: roster: data after the roster")
	}
	return &r, r.Validate()
}

// ReadRoster reads the roster at path; a missing file is no roster (nil).
func ReadRoster(path string) (*Roster, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: roster: %w", err)
	}
	r, err := ParseRoster(b)
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, path)
	}
	return r, nil
}

// Active returns the active credential of a key.
func (r *Roster) Active(key string) (Credential, bool) {
	if r == nil {
		return Credential{}, false
	}
	for _, c := range r.Workers {
		if c.Key == key && c.Revoked == nil {
			return c, true
		}
	}
	return Credential{}, false
}

// Issue makes a key pair for worker, adds its public key to the roster
// and returns the worker's credentials. A worker holding an active key
// already is an error: revoke it first.
func (r *Roster) Issue(worker string, now time.Time) (WorkerCreds, error) {
	if err := ValidWorker(worker); err != nil {
		return WorkerCreds{}, err
	}
	if slices.ContainsFunc(r.Workers, func(c Credential) bool { return c.Worker == worker && c.Revoked == nil }) {
		return WorkerCreds{}, fmt.Errorf("cluster: worker %s holds active credentials already: revoke them first", worker)
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return WorkerCreds{}, fmt.Errorf("cluster: issue credentials: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return WorkerCreds{}, fmt.Errorf("cluster: issue credentials: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return WorkerCreds{}, fmt.Errorf("cluster: issue credentials: %w", err)
	}
	r.Workers = append(r.Workers, Credential{Worker: worker, Key: pub, Issued: now.UTC()})
	return WorkerCreds{Version: CredsVersion, Run: r.Run, Worker: worker, Seed: string(seed)}, nil
}

// Revoke marks worker's active key revoked, and reports whether it had one.
func (r *Roster) Revoke(worker string, now time.Time) bool {
	for i, c := range r.Workers {
		if c.Worker == worker && c.Revoked == nil {
			at := now.UTC()
			r.Workers[i].Revoked = &at
			return true
		}
	}
	return false
}

// IssueCredentials issues credentials for worker in the run whose cluster
// folder is dir (its run id made there if it has none yet): it writes them
// to the new file out (WriteWorkerCreds), then records the public key in
// the run's roster.
func IssueCredentials(dir, worker, out string, now time.Time) (WorkerCreds, error) {
	r, err := openRoster(dir)
	if err != nil {
		return WorkerCreds{}, err
	}
	c, err := r.Issue(worker, now)
	if err != nil {
		return WorkerCreds{}, err
	}
	if err := WriteWorkerCreds(out, c); err != nil {
		return WorkerCreds{}, err
	}
	if err := writeRoster(dir, r); err != nil {
		_ = os.Remove(out) // a key the server would never admit
		return WorkerCreds{}, err
	}
	return c, nil
}

// RevokeCredentials revokes worker's active key in the run whose cluster
// folder is dir; a server reading the roster cuts the worker off within
// RosterPoll, and refuses it from then on, across restarts.
func RevokeCredentials(dir, worker string, now time.Time) error {
	r, err := openRoster(dir)
	if err != nil {
		return err
	}
	if !r.Revoke(worker, now) {
		return fmt.Errorf("cluster: worker %q holds no active credentials in run %s", worker, r.Run)
	}
	return writeRoster(dir, r)
}

// openRoster reads the roster of the run of cluster folder dir, or starts
// an empty one.
func openRoster(dir string) (*Roster, error) {
	run, err := RunID(dir)
	if err != nil {
		return nil, err
	}
	r, err := ReadRoster(RosterFile(dir))
	if err != nil {
		return nil, err
	}
	if r == nil {
		return &Roster{Version: RosterVersion, Run: run}, nil
	}
	if r.Run != run {
		return nil, fmt.Errorf("cluster: roster %s is for run %s, the folder's run is %s", RosterFile(dir), r.Run, run)
	}
	return r, nil
}

func writeRoster(dir string, r *Roster) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("cluster: roster: %w", err)
	}
	if err := data.WriteFile(RosterFile(dir), append(b, '\n')); err != nil {
		return fmt.Errorf("cluster: roster: %w", err)
	}
	return nil
}

// CredsVersion is the version of a worker's credentials file.
const CredsVersion = 1

// WorkerCreds is what a worker holds: the run and worker id its key is
// for, and the key's seed ("SU..."), which never leaves the worker (the
// server checks a signature of its nonce).
type WorkerCreds struct {
	Version int    `json:"kumalak_worker_credentials"` // CredsVersion
	Run     string `json:"run"`
	Worker  string `json:"worker"`
	Seed    string `json:"seed"`
}

// Validate names the first thing wrong with the credentials.
func (c WorkerCreds) Validate() error {
	if c.Version != CredsVersion {
		return fmt.Errorf("cluster: credentials: version %d, this build reads %d", c.Version, CredsVersion)
	}
	if err := ValidName("run", c.Run); err != nil {
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	if err := ValidWorker(c.Worker); err != nil {
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	if _, err := c.PublicKey(); err != nil {
		return err
	}
	return nil
}

// PublicKey returns the public key of the credentials' seed.
func (c WorkerCreds) PublicKey() (string, error) {
	kp, err := nkeys.FromSeed([]byte(c.Seed))
	if err == nil {
		var pub string
		if pub, err = kp.PublicKey(); err == nil && nkeys.IsValidPublicUserKey(pub) {
			return pub, nil
		}
	}
	return "", errors.New("cluster: credentials: the seed is not a user NKey seed (SU...)")
}

// Marshal returns the credentials file's content.
func (c WorkerCreds) Marshal() []byte {
	b, _ := json.MarshalIndent(c, "", "  ") // four strings and an int: cannot fail
	return append(b, '\n')
}

// ParseWorkerCreds decodes a credentials file strictly and validates it.
func ParseWorkerCreds(b []byte) (WorkerCreds, error) {
	var c WorkerCreds
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return WorkerCreds{}, fmt.Errorf("cluster: credentials: %w", err)
	}
	if dec.More() {
		return WorkerCreds{}, errors.New("cluster: credentials: data after the credentials")
	}
	return c, c.Validate()
}

// ReadWorkerCreds reads a worker's credentials file.
func ReadWorkerCreds(path string) (WorkerCreds, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return WorkerCreds{}, fmt.Errorf("cluster: credentials: %w", err)
	}
	c, err := ParseWorkerCreds(b)
	if err != nil {
		return WorkerCreds{}, fmt.Errorf("%w (%s)", err, path)
	}
	return c, nil
}

// WriteWorkerCreds writes credentials to path, readable by its owner only;
// it never overwrites a file.
func WriteWorkerCreds(path string, c WorkerCreds) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	if _, err := f.Write(c.Marshal()); err != nil {
		f.Close()
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cluster: credentials: %w", err)
	}
	return nil
}

// ServerConfUser returns the entry of a standalone nats-server's
// configuration (authorization.users) that gives the holder of key the
// rights of worker of run, and nothing more: the same WorkerPermissions
// the embedded server grants. key may be a variable ("$NAME").
func ServerConfUser(run, worker, key string) string {
	p := WorkerPermissions(run, worker)
	var b bytes.Buffer
	fmt.Fprintf(&b, "{ nkey: %s, permissions: {\n  publish: { allow: [\n", key)
	for _, s := range p.Publish.Allow {
		fmt.Fprintf(&b, "    %q\n", s)
	}
	fmt.Fprintf(&b, "  ] }\n  subscribe: { allow: [%q] }\n} }\n", p.Subscribe.Allow[0])
	return b.String()
}
