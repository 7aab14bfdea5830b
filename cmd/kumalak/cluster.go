package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"kumalak/cluster"
	"kumalak/train"
)

// hostFlags say where the trainer's NATS server is: embedded (the default)
// or standalone, and the embedded one's address and TLS files.
type hostFlags struct {
	conn   natsFlags
	server cluster.ServerConfig // Listen, TLSCert, TLSKey; the rest set by openHost
}

func (h *hostFlags) add(c *cobra.Command) {
	h.conn.add(c, "use this standalone NATS server (e.g. nats://host:4222) instead of the embedded one; \"off\" for no server at all")
	fl := c.Flags()
	fl.StringVar(&h.server.Listen, "listen", cluster.DefaultListen, "address of the embedded NATS server for workers (if the default is taken, a free port); port 0 picks one; workers join with credentials from kumalak worker-credentials issue")
	fl.StringVar(&h.server.TLSCert, "tls-cert", "", "embedded server: PEM certificate; with --tls-key, workers must use tls://")
	fl.StringVar(&h.server.TLSKey, "tls-key", "", "embedded server: PEM private key of --tls-cert")
}

// openHost opens the trainer's NATS side by cluster.OpenHost's rules: the
// embedded server with storage in runDir.NATS() and the run's roster, a
// standalone server, or none; it prints where the server is.
func openHost(ctx context.Context, f hostFlags, runDir train.Dir, out, errw io.Writer) (*cluster.Host, error) {
	log := func(m string) { fmt.Fprintln(errw, m) }
	cc, err := f.conn.config("train", "kumalak train", log)
	if err != nil {
		return nil, err
	}
	srv := f.server
	srv.Dir, srv.Roster, srv.Log = runDir.NATS(), runDir.ClusterRoster(), log
	h, err := cluster.OpenHost(ctx, cluster.HostConfig{URL: cc.URL, Conn: cc, Server: srv})
	if errors.Is(err, cluster.ErrHostConfig) {
		return nil, badInput("train", "%v", err)
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if a := h.About(); a != "" {
		fmt.Fprintln(out, a)
	}
	return h, nil
}
