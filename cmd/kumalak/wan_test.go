package main

import (
	"fmt"
	"math/rand/v2"
	stdnet "net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// sh runs a command of the WAN set-up, failing the test on error.
func sh(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// netem sets the emulated link of both ends of the veth pair.
func netem(t *testing.T, verb, ns, host, peer string, spec ...string) {
	t.Helper()
	sh(t, append([]string{"tc", "qdisc", verb, "dev", host, "root", "netem"}, spec...)...)
	sh(t, append([]string{"ip", "netns", "exec", ns, "tc", "qdisc", verb, "dev", peer, "root", "netem"}, spec...)...)
}

// startProg runs a program as a child process with this binary's
// environment (so that this binary, run by it, acts as kumalak), killed
// when the test ends.
func startProg(t *testing.T, name string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(name, args...), done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), asMainEnv+"=1")
	p.cmd.Stdout, p.cmd.Stderr = p, p
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.done
		p.done <- nil
	})
	return p
}

// workerLine is the last line a worker prints.
var workerLine = regexp.MustCompile(`worker (\S+): run \S+, \d+ games, (\d+) samples, (\d+) batches published \((\d+) re-sent\), (\d+) samples lost`)

// TestWAN runs a trainer on this machine and two worker processes in a
// network namespace of the test's own, behind a veth pair with tc netem:
// 100 ms of delay and 1% loss each way, then a 20 s partition (100% loss),
// then the link back. In the end every sample a worker published is in
// exactly one shard (checkExactlyOnce), and the metrics count, per worker,
// what it published. With root, ip and tc (iproute2) and a kernel with
// netem it runs as said; elsewhere (this project's sandbox has no qdiscs
// at all) a user-space proxy on loopback emulates the same link (proxyLink).
// It runs only with KUMALAK_WAN=1 (about a minute and a half):
//
//	KUMALAK_WAN=1 go test ./cmd/kumalak -run TestWAN -v -timeout 10m
func TestWAN(t *testing.T) {
	if os.Getenv("KUMALAK_WAN") == "" {
		t.Skip("the emulated WAN run: set KUMALAK_WAN=1 (needs root, ip and tc from iproute2, or falls back to a proxy)")
	}
	cfg, run := clusterConfig(t), filepath.Join(t.TempDir(), "run")
	link, reason := netnsLink(t)
	if link == nil {
		t.Logf("no network namespace with tc netem here (%s): a proxy on loopback emulates the link instead", reason)
		link = proxyLink(t)
	}
	url := "nats://" + link.listen
	trainer := start(t, "train", "--config", cfg, "--run", run, "--listen", link.listen, "--quiet")
	waitFor(t, "the trainer's server", func() bool { return strings.Contains(trainer.output(), "nats: serving on "+url) })
	var workers []*proc
	for _, w := range []string{"wA", "wB"} {
		workers = append(workers, link.worker(t, "worker", "--nats", "nats://"+link.workerAddr, "--creds", issueCreds(t, run, w),
			"--quiet", "--parallel", "2", "--threads", "1", "--batch", "100", "--drain", "60s"))
	}
	both := func(after int) bool {
		seen := map[string]bool{}
		ms := metrics(run)
		for _, m := range ms[min(after, len(ms)):] {
			if m.Remote != nil {
				for src, n := range m.Remote.Sources {
					seen[src] = seen[src] || n > 0
				}
			}
		}
		return seen["wA"] && seen["wB"]
	}
	waitFor(t, "samples of both workers over the emulated WAN", func() bool { return both(0) })
	link.partition(t, true)
	t.Log("partition: 20 s")
	time.Sleep(20 * time.Second) // the partition's length itself, not a check
	link.partition(t, false)
	n := len(metrics(run))
	waitFor(t, "samples of both workers after the partition", func() bool { return both(n) })
	for _, w := range workers {
		w.interrupt(t)
	}
	published := map[string]int{}
	for _, w := range workers {
		m := workerLine.FindStringSubmatch(w.output())
		if m == nil {
			t.Fatalf("no last line from a worker:\n%s", w.output())
		}
		samples, _ := strconv.Atoi(m[2])
		lost, _ := strconv.Atoi(m[5])
		published[m[1]] = samples - lost
		t.Logf("%s", m[0])
	}
	waitFor(t, "every published sample in a shard", func() bool {
		got := workerSamples(metrics(run))
		return got["wA"] >= published["wA"] && got["wB"] >= published["wB"]
	})
	trainer.interrupt(t)
	got := workerSamples(metrics(run))
	var rejected, stale, dups int64
	for _, m := range metrics(run) {
		if m.Remote != nil {
			rejected, stale, dups = rejected+m.Remote.Rejected, stale+m.Remote.Stale, dups+m.Remote.Duplicates
		}
	}
	t.Logf("%s: published %v samples; shards hold %v; rejected %d, stale %d, duplicates %d, over %d iterations",
		link.kind, published, got, rejected, stale, dups, len(metrics(run)))
	if got["wA"] != published["wA"] || got["wB"] != published["wB"] || rejected+stale != 0 {
		t.Fatalf("published %v, taken %v, rejected %d, stale %d", published, got, rejected, stale)
	}
	checkExactlyOnce(t, run)
}

// wanLink is an emulated long-distance link between the trainer and the
// workers: where the trainer listens, where workers connect, how they are
// started, and a switch that cuts it.
type wanLink struct {
	kind               string
	listen, workerAddr string
	worker             func(t *testing.T, args ...string) *proc
	partition          func(t *testing.T, on bool)
}

// netnsLink makes a network namespace and a veth pair, with tc netem
// (100 ms delay, 1% loss) on both ends; nil and why when it cannot.
func netnsLink(t *testing.T) (*wanLink, string) {
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, "no " + tool + ": apt-get install iproute2"
		}
	}
	if os.Geteuid() != 0 {
		return nil, "not root"
	}
	id := strconv.Itoa(os.Getpid() % 100000)
	ns, host, peer := "kmlkwan"+id, "kwa"+id, "kwb"+id
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("ip netns add: %v %s", err, out)
	}
	t.Cleanup(func() {
		_ = exec.Command("ip", "netns", "del", ns).Run() // takes the veth pair with it
		_ = exec.Command("ip", "link", "del", host).Run()
	})
	net3 := "10.213." + strconv.Itoa(os.Getpid()%250)
	sh(t, "ip", "link", "add", host, "type", "veth", "peer", "name", peer)
	sh(t, "ip", "link", "set", peer, "netns", ns)
	sh(t, "ip", "addr", "add", net3+".1/24", "dev", host)
	sh(t, "ip", "link", "set", host, "up")
	sh(t, "ip", "netns", "exec", ns, "ip", "addr", "add", net3+".2/24", "dev", peer)
	sh(t, "ip", "netns", "exec", ns, "ip", "link", "set", peer, "up")
	sh(t, "ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
	if out, err := exec.Command("tc", "qdisc", "add", "dev", host, "root", "netem", "delay", "100ms", "loss", "1%").CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("tc netem: %v %s", err, strings.TrimSpace(string(out)))
	}
	sh(t, "ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", peer, "root", "netem", "delay", "100ms", "loss", "1%")
	addr := fmt.Sprintf("%s.1:%d", net3, freeTCPPort(t))
	return &wanLink{
		kind: "netns + veth + tc netem", listen: addr, workerAddr: addr,
		worker: func(t *testing.T, args ...string) *proc {
			return startProg(t, "ip", append([]string{"netns", "exec", ns, os.Args[0]}, args...)...)
		},
		partition: func(t *testing.T, on bool) {
			if on {
				netem(t, "change", ns, host, peer, "loss", "100%")
			} else {
				netem(t, "change", ns, host, peer, "delay", "100ms", "loss", "1%")
			}
		},
	}, ""
}

// proxyLink emulates the link in user space: a TCP proxy on loopback
// delays every chunk 100 ms each way, holds one chunk in a hundred 200 ms
// more (what a lost segment costs TCP in a retransmission), and while
// partitioned forwards nothing (the connections stay open, as across a
// real partition).
func proxyLink(t *testing.T) *wanLink {
	listen := fmt.Sprintf("127.0.0.1:%d", freeTCPPort(t))
	l, err := stdnet.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	var cut atomic.Bool
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				s, err := stdnet.Dial("tcp", listen)
				if err != nil {
					_ = c.Close()
					return
				}
				go pump(c, s, &cut)
				pump(s, c, &cut)
			}()
		}
	}()
	return &wanLink{
		kind: "user-space proxy", listen: listen, workerAddr: l.Addr().String(),
		worker:    func(t *testing.T, args ...string) *proc { return start(t, args...) },
		partition: func(_ *testing.T, on bool) { cut.Store(on) },
	}
}

// pump copies src to dst through the emulated link, in order.
func pump(src, dst stdnet.Conn, cut *atomic.Bool) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	q := make(chan chunk, 4096)
	go func() {
		defer close(q)
		for {
			b := make([]byte, 32<<10)
			n, err := src.Read(b)
			if n > 0 {
				at := time.Now().Add(100 * time.Millisecond)
				if rand.IntN(100) == 0 {
					at = at.Add(200 * time.Millisecond)
				}
				q <- chunk{b[:n], at}
			}
			if err != nil {
				return
			}
		}
	}()
	defer func() { _ = dst.Close(); _ = src.Close() }()
	for c := range q {
		time.Sleep(time.Until(c.at))
		for cut.Load() {
			time.Sleep(10 * time.Millisecond)
		}
		if _, err := dst.Write(c.b); err != nil {
			return
		}
	}
}
