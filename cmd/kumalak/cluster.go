package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/cobra"

	"kumalak/cluster"
	"kumalak/train"
)

// hostFlags say where the trainer's NATS server is: embedded (the default)
// or external, and its credentials.
type hostFlags struct {
	conn            natsFlags
	listen          string
	nkeys           string // file of public NKeys allowed on the embedded server
	tlsCert, tlsKey string
}

func (h *hostFlags) add(c *cobra.Command) {
	h.conn.add(c, "use this NATS server (e.g. nats://host:4222) instead of the embedded one; \"off\" for no server at all")
	fl := c.Flags()
	fl.StringVar(&h.listen, "listen", defaultListen, "address of the embedded NATS server for workers (if the default is taken, a free port); port 0 picks one; beyond loopback it needs credentials")
	fl.StringVar(&h.nkeys, "nkeys", "", "embedded server: file of the workers' public user NKeys (U...), one a line, each optionally followed by the only worker id it may publish as")
	fl.StringVar(&h.tlsCert, "tls-cert", "", "embedded server: PEM certificate; with --tls-key, workers must use tls://")
	fl.StringVar(&h.tlsKey, "tls-key", "", "embedded server: PEM private key of --tls-cert")
}

// defaultListen is the embedded server's address unless --listen says
// otherwise: loopback, at NATS's usual port.
const defaultListen = "127.0.0.1:4222"

// host is the trainer's NATS connection and, when embedded, its server.
type host struct {
	nc  *nats.Conn
	srv *cluster.Server
}

func (h *host) close() {
	if h.nc != nil {
		h.nc.Close()
	}
	if h.srv != nil {
		h.srv.Close()
	}
}

// openHost starts the embedded server with storage in runDir.NATS(), or
// connects to --nats; --nats off gives none. It prints how workers join.
func openHost(ctx context.Context, f hostFlags, runDir train.Dir, out, errw io.Writer) (*host, error) {
	switch f.conn.url {
	case "off":
		return &host{}, nil
	case "":
		return startHost(f, runDir, out)
	}
	cc, err := f.conn.config("train", "kumalak train", func(m string) { fmt.Fprintln(errw, m) })
	if err != nil {
		return nil, err
	}
	c, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	nc, err := cluster.Connect(c, cc)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	fmt.Fprintf(out, "nats: using %s; workers: kumalak worker --nats %s\n", nc.ConnectedUrlRedacted(), nc.ConnectedUrlRedacted())
	return &host{nc: nc}, nil
}

func startHost(f hostFlags, runDir train.Dir, out io.Writer) (*host, error) {
	tok, err := f.conn.secret("train")
	if err != nil {
		return nil, err
	}
	keys, err := readNKeys(f.nkeys)
	if err != nil {
		return nil, err
	}
	cfg := cluster.ServerConfig{Dir: runDir.NATS(), Listen: f.listen, Token: tok, NKeys: keys, TLSCert: f.tlsCert, TLSKey: f.tlsKey}
	tokenFile := ""
	if tok == "" && len(keys) == 0 && !loopbackListen(f.listen) {
		if cfg.Token, tokenFile, err = newTokenFile(runDir); err != nil {
			return nil, err
		}
	}
	srv, err := cluster.StartServer(cfg)
	if errors.Is(err, cluster.ErrAddrInUse) && f.listen == defaultListen {
		cfg.Listen = "127.0.0.1:0" // another trainer has the usual port: any will do on loopback
		srv, err = cluster.StartServer(cfg)
	}
	if err != nil {
		return nil, badInput("train", "%v", err)
	}
	nc, err := srv.Connect("kumalak train")
	if err != nil {
		srv.Close()
		return nil, fmt.Errorf("train: %w", err)
	}
	how := "--nats " + srv.URL()
	switch {
	case tokenFile != "":
		how += " --token-file " + tokenFile + " (copy it to the worker; new token made)"
	case tok != "":
		how += " --token …"
	case len(keys) > 0:
		how += " --nkey <seed file>"
	}
	fmt.Fprintf(out, "nats: serving on %s (embedded, storage %s); workers: kumalak worker %s\n", srv.URL(), cfg.Dir, how)
	return &host{nc: nc, srv: srv}, nil
}

func loopbackListen(addr string) bool {
	host := addr
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		host = strings.Trim(addr[:i], "[]")
	}
	return host == "localhost" || strings.HasPrefix(host, "127.") || host == "::1"
}

// newTokenFile makes a random token and keeps it in runDir.ClusterToken(),
// readable by its owner only; a resumed run reuses it.
func newTokenFile(runDir train.Dir) (string, string, error) {
	path := runDir.ClusterToken()
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), path, nil
	}
	tok, err := cluster.NewToken()
	if err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", "", fmt.Errorf("train: %w", err)
	}
	if err := os.WriteFile(path, []byte(tok+"\n"), 0o600); err != nil {
		return "", "", fmt.Errorf("train: %w", err)
	}
	return tok, path, nil
}

// readNKeys reads public keys, one a line, each optionally followed by the
// worker id it may publish as ('#' starts a comment).
func readNKeys(path string) ([]cluster.WorkerKey, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("train", "--nkeys: %v", err)
	}
	defer f.Close()
	var keys []cluster.WorkerKey
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		switch f := strings.Fields(line); len(f) {
		case 0:
		case 1, 2:
			keys = append(keys, cluster.WorkerKey{Public: f[0], Worker: strings.Join(f[1:], "")})
		default:
			return nil, badInput("train", "--nkeys %s line %d: want a key and at most a worker id", path, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, badInput("train", "--nkeys %s: %v", path, err)
	}
	if len(keys) == 0 {
		return nil, badInput("train", "--nkeys %s: no keys", path)
	}
	return keys, nil
}
