package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"kumalak/data"
	"kumalak/net"
	"kumalak/selfplay"
)

// Settings is what a worker learns about the run it joins, from the
// settings bucket: which game with which encoding, and how to play.
type Settings struct {
	Run          string            `json:"run"`           // run id, a subject token
	Layout       data.Layout       `json:"layout"`        // game, observation encoding version and sizes
	BatchVersion int               `json:"batch_version"` // batch message format version the trainer reads
	SelfPlay     selfplay.Config   `json:"selfplay"`      // self-play settings every worker plays with
	Batcher      net.BatcherConfig `json:"batcher"`       // batching of network calls (a worker may change Workers)
	Seed         uint64            `json:"seed"`          // the run's seed, mixed into each worker's
	// MaxBatch is the most samples the trainer takes in one batch (at most
	// its cap of samples per iteration): workers make no larger ones, and
	// the trainer rejects them.
	MaxBatch int `json:"max_batch"`
}

// Validate names the first field that is missing or out of range.
func (s Settings) Validate() error {
	if err := ValidName("run", s.Run); err != nil {
		return err
	}
	if err := s.Layout.Validate(); err != nil {
		return fmt.Errorf("cluster: settings: %w", err)
	}
	if s.BatchVersion != BatchVersion {
		return fmt.Errorf("cluster: settings: run %s sends batch format %d, this build speaks %d: use the same kumalak version on trainer and workers", s.Run, s.BatchVersion, BatchVersion)
	}
	if s.MaxBatch < 1 || s.MaxBatch > MaxBatchSamples {
		return fmt.Errorf("cluster: settings: max_batch %d out of range 1..%d", s.MaxBatch, MaxBatchSamples)
	}
	if err := s.SelfPlay.Validate(); err != nil {
		return fmt.Errorf("cluster: settings: %w", err)
	}
	if err := s.Batcher.Validate(); err != nil {
		return fmt.Errorf("cluster: settings: %w", err)
	}
	return nil
}

// Setup creates the stream and buckets that the server does not hold yet;
// those it holds are left as they are, so that an operator's changes (a
// shorter retention, more replicas: docs/DISTRIBUTED.md) survive restarts.
func Setup(ctx context.Context, js jetstream.JetStream) error {
	ctx, cancel := context.WithTimeout(ctx, modelTimeout)
	defer cancel()
	if _, err := js.Stream(ctx, StreamName); errors.Is(err, jetstream.ErrStreamNotFound) {
		_, err = js.CreateStream(ctx, jetstream.StreamConfig{
			Name: StreamName, Subjects: []string{SubjectPrefix + ">"}, Storage: jetstream.FileStorage,
			Retention: jetstream.LimitsPolicy, Duplicates: DedupWindow, MaxMsgSize: 8 << 20, MaxAge: StreamMaxAge,
			Description: "kumalak self-play sample batches",
		})
		if err != nil {
			return fmt.Errorf("cluster: setup stream %s: %w", StreamName, err)
		}
	} else if err != nil {
		return fmt.Errorf("cluster: setup stream %s: %w", StreamName, err)
	}
	if _, err := js.KeyValue(ctx, SettingsBucket); errors.Is(err, jetstream.ErrBucketNotFound) {
		_, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: SettingsBucket, Storage: jetstream.FileStorage, History: 1})
		if err != nil {
			return fmt.Errorf("cluster: setup bucket %s: %w", SettingsBucket, err)
		}
	} else if err != nil {
		return fmt.Errorf("cluster: setup bucket %s: %w", SettingsBucket, err)
	}
	if _, err := js.ObjectStore(ctx, ModelsBucket); errors.Is(err, jetstream.ErrBucketNotFound) {
		if _, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ModelsBucket, Storage: jetstream.FileStorage}); err != nil {
			return fmt.Errorf("cluster: setup bucket %s: %w", ModelsBucket, err)
		}
	} else if err != nil {
		return fmt.Errorf("cluster: setup bucket %s: %w", ModelsBucket, err)
	}
	return nil
}

// PutSettings publishes a run's settings and makes it the current run.
func PutSettings(ctx context.Context, js jetstream.JetStream, s Settings) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if err := s.Validate(); err != nil {
		return err
	}
	kv, err := js.KeyValue(ctx, SettingsBucket)
	if err != nil {
		return fmt.Errorf("cluster: settings: %w", err)
	}
	b, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("cluster: settings: %w", err)
	}
	if _, err := kv.Put(ctx, settingsKey(s.Run), b); err != nil {
		return fmt.Errorf("cluster: put settings of %s: %w", s.Run, err)
	}
	if _, err := kv.PutString(ctx, CurrentKey, s.Run); err != nil {
		return fmt.Errorf("cluster: put current run: %w", err)
	}
	return nil
}

// Timeouts of one request to the server (a request sent while the
// connection is down may never be answered) and of a network's transfer.
const (
	callTimeout  = 10 * time.Second
	modelTimeout = 2 * time.Minute
)

// ErrNoRun is wrapped by GetSettings and BestVersion while the server holds
// no run (or not the one asked for) yet.
var ErrNoRun = errors.New("no run published yet")

// CurrentRun returns the run the server names current.
func CurrentRun(ctx context.Context, js jetstream.JetStream) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	kv, err := js.KeyValue(ctx, SettingsBucket)
	if err != nil {
		return "", fmt.Errorf("cluster: current run: %w", err)
	}
	e, err := kv.Get(ctx, CurrentKey)
	if err != nil {
		return "", kvError("current run", err)
	}
	return string(e.Value()), nil
}

// GetSettings reads the settings of run, or of the current run when run is "".
func GetSettings(ctx context.Context, js jetstream.JetStream, run string) (Settings, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	kv, err := js.KeyValue(ctx, SettingsBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return Settings{}, fmt.Errorf("cluster: settings: %w", ErrNoRun)
	}
	if err != nil {
		return Settings{}, fmt.Errorf("cluster: settings: %w", err)
	}
	if run == "" {
		if run, err = CurrentRun(ctx, js); err != nil {
			return Settings{}, err
		}
	}
	e, err := kv.Get(ctx, settingsKey(run))
	if err != nil {
		return Settings{}, kvError("settings of run "+run, err)
	}
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(e.Value()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Settings{}, fmt.Errorf("cluster: settings of run %s: %w (trainer and worker of different kumalak versions?)", run, err)
	}
	return s, s.Validate()
}

func kvError(what string, err error) error {
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("cluster: %s: %w", what, ErrNoRun)
	}
	return fmt.Errorf("cluster: %s: %w", what, err)
}

// PutModel stores m as version v of run's networks, with its SHA-256 in the
// object's metadata, then announces v as the run's best network.
func PutModel(ctx context.Context, js jetstream.JetStream, run string, v int, m *net.Model) error {
	ctx, cancel := context.WithTimeout(ctx, modelTimeout)
	defer cancel()
	b, err := net.Marshal(m)
	if err != nil {
		return fmt.Errorf("cluster: put model %d: %w", v, err)
	}
	obj, err := js.ObjectStore(ctx, ModelsBucket)
	if err != nil {
		return fmt.Errorf("cluster: put model %d: %w", v, err)
	}
	sum := sha256.Sum256(b)
	meta := jetstream.ObjectMeta{Name: ModelName(run, v), Metadata: map[string]string{"sha256": hex.EncodeToString(sum[:]), "version": strconv.Itoa(v)}}
	if _, err := obj.Put(ctx, meta, bytes.NewReader(b)); err != nil {
		return fmt.Errorf("cluster: put model %s: %w", meta.Name, err)
	}
	kv, err := js.KeyValue(ctx, SettingsBucket)
	if err != nil {
		return fmt.Errorf("cluster: put model %d: %w", v, err)
	}
	if _, err := kv.PutString(ctx, bestKey(run), strconv.Itoa(v)); err != nil {
		return fmt.Errorf("cluster: announce model %d: %w", v, err)
	}
	return nil
}

// BestVersion returns the version of run's best network.
func BestVersion(ctx context.Context, js jetstream.JetStream, run string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	kv, err := js.KeyValue(ctx, SettingsBucket)
	if err != nil {
		return 0, fmt.Errorf("cluster: best network of %s: %w", run, err)
	}
	e, err := kv.Get(ctx, bestKey(run))
	if err != nil {
		return 0, kvError("best network of run "+run, err)
	}
	v, err := strconv.Atoi(string(e.Value()))
	if err != nil || v < 0 {
		return 0, fmt.Errorf("cluster: best network of run %s: bad version %q", run, e.Value())
	}
	return v, nil
}

// GetModel fetches version v of run's networks and checks it against the
// SHA-256 stored with it and the model file's own checksum.
//
// It reads the object's chunks with direct gets, one per chunk, rather
// than with the object store's Get: that Get makes a consumer, and a
// client allowed to make consumers chooses where the server delivers
// their messages, any subject included (another worker's batch subject,
// another's inbox). A worker's credentials allow direct gets only
// (WorkerPermissions).
func GetModel(ctx context.Context, js jetstream.JetStream, run string, v int) (*net.Model, error) {
	ctx, cancel := context.WithTimeout(ctx, modelTimeout)
	defer cancel()
	name := ModelName(run, v)
	b, info, err := getObject(ctx, js, name)
	if err != nil {
		return nil, fmt.Errorf("cluster: get model %s: %w", name, err)
	}
	sum := sha256.Sum256(b)
	if want := info.Metadata["sha256"]; want != hex.EncodeToString(sum[:]) {
		return nil, fmt.Errorf("cluster: get model %s: checksum mismatch (sha256 %x, want %s)", name, sum, want)
	}
	m, err := net.Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("cluster: get model %s: %w", name, err)
	}
	return m, nil
}

// getObject reads an object of the models bucket: its info (a direct get
// of its last meta message), then its chunks, in order, each a direct get
// of the next message on the object's chunk subject.
func getObject(ctx context.Context, js jetstream.JetStream, name string) ([]byte, *jetstream.ObjectInfo, error) {
	obj, err := js.ObjectStore(ctx, ModelsBucket)
	if err != nil {
		return nil, nil, err
	}
	info, err := obj.GetInfo(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	stream, err := js.Stream(ctx, "OBJ_"+ModelsBucket)
	if err != nil {
		return nil, nil, err
	}
	chunks := "$O." + ModelsBucket + ".C." + info.NUID
	b := make([]byte, 0, info.Size)
	seq := uint64(1)
	for i := range info.Chunks {
		m, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(chunks))
		if err != nil {
			return nil, nil, fmt.Errorf("chunk %d of %d: %w", i+1, info.Chunks, err)
		}
		b, seq = append(b, m.Data...), m.Sequence+1
	}
	if uint64(len(b)) != info.Size {
		return nil, nil, fmt.Errorf("%d bytes in %d chunks, the object has %d", len(b), info.Chunks, info.Size)
	}
	return b, info, nil
}

// ModelVersions returns the versions of run's networks in the store, in
// increasing order.
func ModelVersions(ctx context.Context, js jetstream.JetStream, run string) ([]int, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	obj, err := js.ObjectStore(ctx, ModelsBucket)
	if err != nil {
		return nil, fmt.Errorf("cluster: list models: %w", err)
	}
	infos, err := obj.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cluster: list models: %w", err)
	}
	var vs []int
	for _, in := range infos {
		rest, ok := strings.CutPrefix(in.Name, run+"/v")
		if !ok {
			continue
		}
		if v, err := strconv.Atoi(strings.TrimSuffix(rest, ".kmodel")); err == nil {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return vs, nil
}

// DeleteModel removes version v of run's networks from the store.
func DeleteModel(ctx context.Context, js jetstream.JetStream, run string, v int) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	obj, err := js.ObjectStore(ctx, ModelsBucket)
	if err != nil {
		return fmt.Errorf("cluster: delete model %d: %w", v, err)
	}
	if err := obj.Delete(ctx, ModelName(run, v)); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("cluster: delete model %d: %w", v, err)
	}
	return nil
}
