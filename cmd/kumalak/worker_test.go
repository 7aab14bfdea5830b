package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"kumalak/cluster"
	"kumalak/data"
	"kumalak/train"
)

// procTimeout bounds each wait on a child process: generous for a loaded machine.
const procTimeout = 90 * time.Second

// proc is a kumalak child process and its combined output.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan error
}

func (p *proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// start runs kumalak with args as a child process, killed when the test ends.
func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startProg(t, os.Args[0], args...)
}

// wait waits for the process to exit and returns its error.
func (p *proc) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(procTimeout):
		t.Fatalf("%s did not exit:\n%s", p.cmd.Args[1], p.output())
		return nil
	}
}

// kill9 kills the process with SIGKILL and waits for it.
func (p *proc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.wait(t)
}

// interrupt sends SIGINT (Ctrl-C) and waits for a clean exit.
func (p *proc) interrupt(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(t); err != nil {
		t.Fatalf("%s after Ctrl-C: %v\n%s", p.cmd.Args[1], err, p.output())
	}
}

// waitFor polls cond until it holds, failing after procTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(procTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// freeTCPPort returns a loopback port that was free a moment ago.
func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*stdnet.TCPAddr).Port
}

// clusterConfig writes configs/tiny.yaml with no iteration limit, every
// shard kept, no batch dropped for age and at most 3000 worker samples per
// iteration (the rest wait in the stream).
func clusterConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../configs/tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "iterations: 2\n", "iterations: 0\n", 1)
	s = strings.Replace(s, "budget: 0s\n", "budget: 10m\n", 1)
	s += "keep_shards: 100000\ncluster: {max_age: 0, max_samples_per_iteration: 3000, ack_wait: 1s}\n"
	p := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// metrics reads the run's metrics.jsonl (torn or missing: what is there).
func metrics(run string) []train.Metrics {
	ms, _ := train.ReadMetrics(train.Dir(run).Metrics())
	return ms
}

// workerSamples sums the samples each source contributed over ms.
func workerSamples(ms []train.Metrics) map[string]int {
	sum := map[string]int{}
	for _, m := range ms {
		if m.Remote != nil {
			for src, n := range m.Remote.Sources {
				sum[src] += n
			}
		}
	}
	return sum
}

// TestTrainerAndWorkers runs a trainer (embedded server) and two worker
// processes on configs/tiny.yaml: both workers' samples reach the window;
// one worker is killed with -9 mid-run, then the trainer; the resumed
// trainer (whose embedded server restarts from its file storage) goes on,
// and in the end every batch the stream holds is either in exactly one
// checkpointed shard (counted by id) or still unacknowledged.
func TestTrainerAndWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	cfg, run := clusterConfig(t), filepath.Join(t.TempDir(), "run")
	listen := fmt.Sprintf("127.0.0.1:%d", freeTCPPort(t))
	url := "nats://" + listen
	trainer := start(t, "train", "--config", cfg, "--run", run, "--listen", listen, "--quiet")
	waitFor(t, "the trainer's server", func() bool { return strings.Contains(trainer.output(), "nats: serving on "+url) })
	wargs := []string{"worker", "--nats", url, "--quiet", "--parallel", "2", "--threads", "1", "--batch", "100", "--drain", "2s"}
	wa := start(t, append(wargs, "--creds", issueCreds(t, run, "wA"))...)
	wb := start(t, append(wargs, "--creds", issueCreds(t, run, "wB"))...)
	waitFor(t, "an iteration with samples of both workers", func() bool {
		for _, m := range metrics(run) {
			if m.Remote != nil && m.Remote.Sources["wA"] > 0 && m.Remote.Sources["wB"] > 0 {
				return true
			}
		}
		return false
	})
	wb.kill9(t)
	n := len(metrics(run))
	waitFor(t, "iterations after worker B died", func() bool { return len(metrics(run)) >= n+3 })
	trainer.kill9(t)
	// Kill the resumed trainer twice more, at other moments of an iteration.
	for _, delay := range []time.Duration{37 * time.Millisecond, 113 * time.Millisecond} {
		tr := start(t, "train", "--run", run, "--resume", "--listen", listen, "--quiet")
		n := len(metrics(run))
		waitFor(t, "iterations of the resumed trainer", func() bool { return len(metrics(run)) >= n+2 })
		time.Sleep(delay)
		tr.kill9(t)
	}
	st, err := train.LoadState(train.Dir(run))
	if err != nil {
		t.Fatal(err)
	}
	// The last trainer runs past the ack wait, so that the batches a killed
	// one checkpointed but never acknowledged come back to it; then Ctrl-C.
	resumed := start(t, "train", "--run", run, "--resume", "--listen", listen, "--quiet")
	t0 := time.Now()
	waitFor(t, "iterations of the last trainer", func() bool {
		return len(metrics(run)) >= st.Iteration+4 && time.Since(t0) > 3*time.Second
	})
	resumed.interrupt(t)
	wa.interrupt(t)
	if !strings.Contains(wa.output(), "worker wA: run ") {
		t.Fatalf("worker A's last line missing:\n%s", wa.output())
	}
	checkExactlyOnce(t, run)
}

// checkExactlyOnce checks a stopped run against its stream: ledger ids
// unique; each iteration's worker samples in metrics, ledger and shard
// agree; and every batch in the stream is in the ledger or unacknowledged.
func checkExactlyOnce(t *testing.T, run string) {
	t.Helper()
	st, err := train.LoadState(train.Dir(run))
	if err != nil {
		t.Fatal(err)
	}
	ms := metrics(run)
	if len(ms) != st.Iteration {
		t.Fatalf("%d metrics lines for %d iterations", len(ms), st.Iteration)
	}
	inLedger := map[string]int{}
	var shardTotal int64
	for _, m := range ms {
		es, err := cluster.ReadLedgerFile(cluster.LedgerFile(train.Dir(run).Cluster(), m.Iteration))
		if err != nil {
			t.Fatal(err)
		}
		fromWorkers := 0
		for _, e := range es {
			if it, dup := inLedger[e.ID]; dup {
				t.Fatalf("batch %s in the shards of iterations %d and %d", e.ID, it, m.Iteration)
			}
			inLedger[e.ID] = m.Iteration
			fromWorkers += e.Samples
		}
		sum := 0
		for src, n := range m.Remote.Sources {
			if src != "local" {
				sum += n
			}
		}
		h, err := data.ReadShardHeader(train.Dir(run).Shard(m.Iteration))
		if err != nil {
			t.Fatal(err)
		}
		if sum != fromWorkers || h.Count != fromWorkers+m.Remote.Sources["local"] {
			t.Fatalf("iteration %d: metrics say %d worker samples, ledger %d, shard %d in all (%d local)",
				m.Iteration, sum, fromWorkers, h.Count, m.Remote.Sources["local"])
		}
		shardTotal += int64(h.Count)
	}
	if shardTotal != st.Samples {
		t.Fatalf("shards hold %d samples, the checkpoint %d", shardTotal, st.Samples)
	}
	if src := workerSamples(ms); src["wA"] == 0 || src["wB"] == 0 {
		t.Fatalf("samples per source %v: want both workers", src)
	}
	dups := int64(0)
	for _, m := range ms {
		dups += m.Remote.Duplicates
	}
	t.Logf("duplicates recognised by the ledger: %d", dups)
	checkStream(t, run, inLedger)
}

// checkStream opens the run's server storage and checks that every batch
// of the stream is either in the ledger or not acknowledged yet.
func checkStream(t *testing.T, run string, inLedger map[string]int) {
	t.Helper()
	srv, err := cluster.StartServer(cluster.ServerConfig{Dir: train.Dir(run).NATS()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	nc, err := srv.Connect("check")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), procTimeout)
	defer cancel()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	runID, err := cluster.RunID(train.Dir(run).Cluster())
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(ctx, cluster.StreamName)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := stream.Consumer(ctx, cluster.ConsumerName(runID))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	last := stream.CachedInfo().State.LastSeq
	unacked, found := 0, 0
	for seq := uint64(1); seq <= last; seq++ {
		raw, err := stream.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := cluster.DecodeBatch(raw.Data)
		if err != nil {
			t.Fatalf("stream message %d: %v", seq, err)
		}
		if _, ok := inLedger[b.ID]; ok {
			found++
			continue
		}
		if seq <= ci.AckFloor.Stream {
			t.Fatalf("batch %s (stream seq %d) acknowledged but in no shard", b.ID, seq)
		}
		unacked++
	}
	if found != len(inLedger) {
		t.Fatalf("%d ledger batches found in the stream, ledger holds %d", found, len(inLedger))
	}
	// Batches in a shard may be unacknowledged too: a trainer killed between
	// its checkpoint and its acks leaves them so, until the next run takes
	// them again as duplicates.
	if want := int(ci.NumPending) + ci.NumAckPending; unacked > want {
		t.Fatalf("%d batches neither in a shard nor acked; the consumer has %d pending and %d unacked", unacked, ci.NumPending, ci.NumAckPending)
	}
	t.Logf("stream: %d batches in shards, %d waiting; consumer: %d pending, %d unacked", found, unacked, ci.NumPending, ci.NumAckPending)
}

// issueCreds issues worker id credentials for the run in folder run, with
// kumalak worker-credentials, and returns their file.
func issueCreds(t testing.TB, run, id string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), id+".creds")
	if code, stdout, errs := kumalak(t, "worker-credentials", "issue", "--run", run, "--id", id, "--out", out); code != 0 {
		t.Fatalf("issue %s: exit %d\n%s%s", id, code, stdout, errs)
	}
	return out
}

// TestWorkerCredentials: a worker with credentials the server does not
// hold is refused with a clear error and exit status 1; one whose
// credentials are revoked while it runs (kumalak worker-credentials
// revoke) stops with the same, while another worker stays connected;
// the commands' bad input is refused with exit status 2.
func TestWorkerCredentials(t *testing.T) {
	run := t.TempDir()
	dir := train.Dir(run)
	srv, err := cluster.StartServer(cluster.ServerConfig{Dir: dir.NATS(), Roster: dir.ClusterRoster()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stranger := issueCreds(t, t.TempDir(), "wZ") // another run's
	code, _, errs := kumalak(t, "worker", "--nats", srv.URL(), "--creds", stranger, "--quiet")
	if code != 1 || !strings.Contains(errs, "refused the credentials") || !strings.Contains(errs, "--creds") {
		t.Fatalf("foreign credentials: exit %d, %q; want exit 1 and a refusal naming --creds", code, errs)
	}
	wargs := []string{"worker", "--nats", srv.URL(), "--quiet", "--drain", "1s"}
	wa := start(t, append(wargs, "--creds", issueCreds(t, run, "wA"))...)
	wb := start(t, append(wargs, "--creds", issueCreds(t, run, "wB"))...)
	for _, p := range []*proc{wa, wb} {
		waitFor(t, "a worker to connect", func() bool {
			select {
			case err := <-p.done:
				p.done <- err // for the cleanup's wait
				t.Fatalf("a worker exited: %v\n%s", err, p.output())
			default:
			}
			return strings.Contains(p.output(), "connected to")
		})
	}
	if code, out, errs := kumalak(t, "worker-credentials", "list", "--run", run); code != 0 || strings.Count(out, " active") != 2 {
		t.Fatalf("list: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := kumalak(t, "worker-credentials", "revoke", "--run", run, "--id", "wA"); code != 0 || !strings.Contains(out, "revoked worker wA") {
		t.Fatalf("revoke: exit %d\n%s%s", code, out, errs)
	}
	if err := wa.wait(t); err == nil || !strings.Contains(wa.output(), "refused the credentials") {
		t.Fatalf("the revoked worker: %v\n%s", err, wa.output())
	}
	select {
	case err := <-wb.done:
		wb.done <- err // for the cleanup's wait
		t.Fatalf("the other worker stopped: %v\n%s", err, wb.output())
	case <-time.After(2 * cluster.RosterPoll):
	}
	wb.interrupt(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker"}, "--nats"},
		{[]string{"worker", "--nats", srv.URL(), "--creds", filepath.Join(run, "none.creds")}, "--creds"},
		{[]string{"worker", "--nats", srv.URL(), "--creds", stranger, "--id", "other"}, "drop --id"},
		{[]string{"worker-credentials", "issue", "--run", run, "--id", "wB"}, "revoke them first"},
		{[]string{"worker-credentials", "issue", "--run", run, "--id", "local"}, "--id"},
		{[]string{"worker-credentials", "issue", "--run", filepath.Join(run, "none"), "--id", "wC"}, "not a run folder"},
		{[]string{"worker-credentials", "revoke", "--run", run, "--id", "wA"}, "no active credentials"},
		{[]string{"train", "--config", "../../configs/tiny.yaml", "--run", t.TempDir(), "--token", "x"}, "kumalak worker-credentials issue"},
	} {
		if code, _, errs := kumalak(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", c.args, code, errs, c.want)
		}
	}
}

// BenchmarkTrainSamples measures samples per second of a tiny trainer
// (20 iterations) without a server, with its embedded server, and with
// one worker process on this machine. Run with -benchtime 1x.
func BenchmarkTrainSamples(b *testing.B) {
	for _, c := range []struct {
		name    string
		nats    []string
		workers int
	}{{"no-nats", []string{"--nats", "off"}, 0}, {"embedded", nil, 0}, {"one-worker", nil, 1}} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				samples, sec := benchRun(b, c.nats, c.workers)
				b.ReportMetric(float64(samples)/sec, "samples/s")
				b.ReportMetric(sec, "s/run")
			}
		})
	}
}

func benchRun(b *testing.B, natsArgs []string, workers int) (int64, float64) {
	run := filepath.Join(b.TempDir(), "run")
	cfgPath := filepath.Join(b.TempDir(), "bench.yaml")
	src, err := os.ReadFile("../../configs/tiny.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg := strings.Replace(string(src), "iterations: 2\n", "iterations: 20\n", 1) + "cluster: {max_age: 0}\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	listen := "127.0.0.1:0"
	args := append([]string{"train", "--config", cfgPath, "--run", run, "--quiet", "--listen", listen}, natsArgs...)
	t0 := time.Now()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	var ws []*exec.Cmd
	if workers > 0 {
		// start the trainer, then the workers once it serves
		pr, pw, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stdout = pw
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		pw.Close()
		url := readURL(b, pr, &out)
		for i := range workers {
			w := exec.Command(os.Args[0], "worker", "--nats", url, "--quiet", "--creds", issueCreds(b, run, fmt.Sprintf("b%d", i)), "--drain", "1s")
			w.Env = cmd.Env
			if err := w.Start(); err != nil {
				b.Fatal(err)
			}
			ws = append(ws, w)
		}
		go func() { _, _ = out.ReadFrom(pr) }()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("train: %v\n%s", err, out.String())
		}
	} else if err := cmd.Run(); err != nil {
		b.Fatalf("train: %v\n%s", err, out.String())
	}
	sec := time.Since(t0).Seconds()
	for _, w := range ws {
		_ = w.Process.Signal(os.Interrupt)
		_ = w.Wait()
	}
	st, err := train.LoadState(train.Dir(run))
	if err != nil {
		b.Fatal(err)
	}
	return st.Samples, sec
}

// readURL reads the trainer's output until it prints its server's URL.
func readURL(b *testing.B, pr *os.File, out *bytes.Buffer) string {
	buf := make([]byte, 4096)
	var seen bytes.Buffer
	for !strings.Contains(seen.String(), "\n") || !strings.Contains(seen.String(), "nats://") {
		n, err := pr.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			b.Fatalf("trainer output ended: %v\n%s", err, seen.String())
		}
	}
	out.Write(seen.Bytes())
	s := seen.String()
	i := strings.Index(s, "nats://")
	j := strings.IndexAny(s[i:], " \n")
	return s[i : i+j]
}
