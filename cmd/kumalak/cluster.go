package main

import (
	"context"
	"fmt"
	"io"
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
	fl.StringVar(&h.listen, "listen", cluster.DefaultListen, "address of the embedded NATS server for workers (if the default is taken, a free port); port 0 picks one; beyond loopback it needs credentials")
	fl.StringVar(&h.nkeys, "nkeys", "", "embedded server: file of the workers' public user NKeys (U...), one a line, each optionally followed by the only worker id it may publish as")
	fl.StringVar(&h.tlsCert, "tls-cert", "", "embedded server: PEM certificate; with --tls-key, workers must use tls://")
	fl.StringVar(&h.tlsKey, "tls-key", "", "embedded server: PEM private key of --tls-cert")
}

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
	var keys []cluster.WorkerKey
	if f.nkeys != "" {
		if keys, err = cluster.ReadNKeys(f.nkeys); err != nil {
			return nil, badInput("train", "--nkeys: %v", err)
		}
	}
	cfg := cluster.ServerConfig{Dir: runDir.NATS(), Listen: f.listen, Token: tok, NKeys: keys, TLSCert: f.tlsCert, TLSKey: f.tlsKey}
	srv, tokenFile, err := cluster.StartHost(cfg, runDir.ClusterToken())
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
