package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// DefaultListen is the trainer's embedded server address unless it is told
// otherwise: loopback, at NATS's usual port.
const DefaultListen = "127.0.0.1:4222"

// NoServer is the URL that gives a trainer no NATS server at all.
const NoServer = "off"

// ErrHostConfig is wrapped by OpenHost when the settings themselves are
// wrong (the command's input), not the world.
var ErrHostConfig = errors.New("bad NATS settings")

// HostConfig says where a trainer's NATS server is.
type HostConfig struct {
	// URL is "" for the embedded server (Server), NoServer for none, or
	// the URL of a standalone server to connect to (Conn).
	URL string
	// Server sets up the embedded server; its Listen, when DefaultListen
	// and held by another process, gives way to a free loopback port.
	Server ServerConfig
	// Conn is how to reach a standalone server: its URL is set from URL,
	// and its inbox prefix is TrainerInbox unless set. With the embedded
	// server it must hold no credentials (the trainer connects
	// in-process; workers bring their own).
	Conn ConnConfig
	// Connect bounds the wait for a standalone server; 0 = a minute.
	Connect time.Duration
}

// Host is the trainer's NATS connection and, when embedded, its server.
type Host struct {
	Conn   *nats.Conn // nil with NoServer
	Server *Server    // the embedded server; nil otherwise
	about  string
}

// OpenHost starts the embedded server and connects to it in-process, or
// connects to a standalone server, or, with NoServer, does nothing.
func OpenHost(ctx context.Context, cfg HostConfig) (*Host, error) {
	switch cfg.URL {
	case NoServer:
		return &Host{}, nil
	case "":
		return startEmbedded(cfg, DefaultListen)
	}
	cc := cfg.Conn
	cc.URL = cfg.URL
	if cc.InboxPrefix == "" {
		cc.InboxPrefix = TrainerInbox
	}
	wait := cfg.Connect
	if wait == 0 {
		wait = time.Minute
	}
	c, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	nc, err := Connect(c, cc)
	if err != nil {
		return nil, err
	}
	u := nc.ConnectedUrlRedacted()
	return &Host{Conn: nc, about: fmt.Sprintf("nats: using %s; workers: kumalak worker --nats %s", u, u)}, nil
}

// startEmbedded is OpenHost's embedded server, usual being the address
// that gives way when held.
func startEmbedded(cfg HostConfig, usual string) (*Host, error) {
	if cfg.Conn.Token != "" || cfg.Conn.NKeySeed != "" || cfg.Conn.Creds != nil {
		return nil, fmt.Errorf("cluster: %w: a token or key is what the trainer presents to a standalone server (--nats URL); "+
			"the embedded server admits each worker by credentials of its own (kumalak worker-credentials issue)", ErrHostConfig)
	}
	sc := cfg.Server
	srv, err := StartServer(sc)
	if errors.Is(err, ErrAddrInUse) && sc.Listen == usual {
		sc.Listen = "127.0.0.1:0" // another trainer has the usual port: any will do on loopback
		srv, err = StartServer(sc)
	}
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", err, ErrHostConfig)
	}
	nc, err := srv.Connect(cmpName(cfg.Conn.Name))
	if err != nil {
		srv.Close()
		return nil, err
	}
	about := fmt.Sprintf("nats: serving on %s (embedded, storage %s); workers: kumalak worker --nats %s --creds FILE (FILE from kumalak worker-credentials issue)",
		srv.URL(), sc.Dir, srv.URL())
	return &Host{Conn: nc, Server: srv, about: about}, nil
}

func cmpName(n string) string {
	if n == "" {
		return "kumalak train"
	}
	return n
}

// About says where the server is and how workers join it ("" with NoServer).
func (h *Host) About() string { return h.about }

// Close closes the connection and the embedded server.
func (h *Host) Close() {
	if h.Conn != nil {
		h.Conn.Close()
	}
	if h.Server != nil {
		h.Server.Close()
	}
}

// ReadToken returns the token a token file holds, its spaces and line
// end trimmed.
func ReadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cluster: token: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}
