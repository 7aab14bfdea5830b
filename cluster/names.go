package cluster

import (
	"fmt"
	"strconv"
	"time"
)

// Names of the JetStream stream, consumer prefix and buckets a run uses.
// One server may hold many runs: subjects, keys and objects carry the run id.
const (
	// StreamName is the stream of sample batches, subjects "kumalak.samples.<run>.<worker>".
	StreamName = "KUMALAK_SAMPLES"
	// SubjectPrefix starts every sample subject.
	SubjectPrefix = "kumalak.samples."
	// SettingsBucket is the key-value bucket of run settings: key "current"
	// names the run workers join by default, "<run>.settings" holds its
	// Settings as JSON, "<run>.best" the version of its best network.
	SettingsBucket = "KUMALAK_RUNS"
	// HeartbeatPrefix starts the subjects "kumalak.heartbeat.<run>.<worker>"
	// of the workers' heartbeats: plain NATS messages (WorkerProgress as
	// JSON) every HeartbeatEvery, which the trainer counts for WorkerTTL.
	HeartbeatPrefix = "kumalak.heartbeat."
	// ModelsBucket is the object store of networks: "<run>/v<version>.kmodel".
	ModelsBucket = "KUMALAK_MODELS"
	// CurrentKey names the run a worker joins when it is not given one.
	CurrentKey = "current"
	// DedupWindow is how long the stream remembers message ids: a batch
	// re-sent within it is stored once.
	DedupWindow = 20 * time.Minute
	// StreamMaxAge is how long the stream keeps a batch, consumed or not;
	// one no trainer took by then is dropped by the server.
	StreamMaxAge = 24 * time.Hour
	// HeartbeatEvery is how often a worker sends its heartbeat.
	HeartbeatEvery = 5 * time.Second
	// WorkerTTL is how long a worker counts as attached after its last heartbeat.
	WorkerTTL = 30 * time.Second
)

// ValidName checks a run or worker id: 1..64 bytes of ASCII letters,
// digits, '-' and '_', so that it is one token of a subject and of a key.
func ValidName(kind, s string) error {
	if s == "" || len(s) > 64 {
		return fmt.Errorf("cluster: %s id %q: want 1..64 characters", kind, s)
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("cluster: %s id %q: only letters, digits, '-' and '_' are allowed", kind, s)
		}
	}
	return nil
}

// WorkerID returns a worker id made of a host name and a process id,
// "<host>-<pid>", with anything ValidName refuses replaced by '_' and cut
// to 64 characters; an empty host is "worker". It is a valid id.
func WorkerID(host string, pid int) string {
	if host == "" {
		host = "worker"
	}
	id := []byte(host + "-" + strconv.Itoa(pid))
	for i, ch := range id {
		if ValidName("worker", string(ch)) != nil {
			id[i] = '_'
		}
	}
	return string(id[:min(len(id), 64)])
}

// LocalSource is the name the trainer's metrics give its own self-play
// samples; no worker may take it.
const LocalSource = "local"

// ValidWorker checks a worker id: a valid name other than LocalSource.
func ValidWorker(id string) error {
	if id == LocalSource {
		return fmt.Errorf("cluster: worker id %q is the trainer's own samples' name: choose another", id)
	}
	return ValidName("worker", id)
}

// Subject returns the subject a worker publishes a run's batches on.
func Subject(run, worker string) string { return SubjectPrefix + run + "." + worker }

// RunSubjects returns the filter of every batch subject of a run.
func RunSubjects(run string) string { return SubjectPrefix + run + ".>" }

// HeartbeatSubject returns the subject of a worker's heartbeats for a run
// (worker "*" for all of them).
func HeartbeatSubject(run, worker string) string { return HeartbeatPrefix + run + "." + worker }

func settingsKey(run string) string { return run + ".settings" }
func bestKey(run string) string     { return run + ".best" }

// ModelName returns the object name of a run's network of a version.
func ModelName(run string, version int) string {
	return run + "/v" + pad(version) + ".kmodel"
}

// ConsumerName returns the durable consumer of a run's trainer.
func ConsumerName(run string) string { return "trainer-" + run }

func pad(v int) string {
	s := strconv.Itoa(v)
	for len(s) < 6 {
		s = "0" + s
	}
	return s
}

// InboxPrefix is the prefix of a worker's reply subjects: its credentials
// let it subscribe there and nowhere else, so that no worker sees another's
// replies (nats.CustomInboxPrefix).
func InboxPrefix(run, worker string) string { return "_INBOX_KUMALAK." + run + "." + worker }

// TrainerInbox is the prefix of the trainer's reply subjects (its pulls of
// batches among them), which no worker may subscribe to.
const TrainerInbox = "_INBOX_KUMALAK_TRAINER"
