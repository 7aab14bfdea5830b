package cluster

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// ServerConfig sets up an embedded NATS server with JetStream.
type ServerConfig struct {
	// Dir is the JetStream file storage; what is stored there survives a
	// restart of the server.
	Dir string
	// Listen is the client address, host:port; port 0 picks a free one.
	// "" listens on 127.0.0.1 at a free port. A host other than a loopback
	// address needs Token or NKeys.
	Listen string
	// Token, when set, is the secret every client must present.
	Token string
	// NKeys are the public user keys ("U...") allowed to connect; when set,
	// Token is not used and the server makes its own key for in-process use.
	NKeys []string
	// TLSCert and TLSKey, when both set, are the PEM files of the server's
	// certificate and key; clients must then connect with TLS.
	TLSCert, TLSKey string
}

// ErrAddrInUse is wrapped by StartServer when another process holds the
// listen address.
var ErrAddrInUse = errors.New("address in use")

// Server is a running embedded NATS server.
type Server struct {
	ns   *server.Server
	cfg  ServerConfig
	seed []byte // the server's own NKey seed when NKeys are used
}

// StartServer starts an embedded NATS server with JetStream file storage in
// cfg.Dir and waits until it accepts clients.
func StartServer(cfg ServerConfig) (*Server, error) {
	opts, seed, err := serverOptions(&cfg)
	if err != nil {
		return nil, err
	}
	if err := probe(opts.Host, opts.Port); err != nil {
		return nil, err
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: start server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: start server on %s: not ready after 30s (is the address in use?)", cfg.Listen)
	}
	return &Server{ns: ns, cfg: cfg, seed: seed}, nil
}

func serverOptions(cfg *ServerConfig) (*server.Options, []byte, error) {
	if cfg.Dir == "" {
		return nil, nil, errors.New("cluster: server: no storage folder")
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	host, port, err := splitListen(cfg.Listen)
	if err != nil {
		return nil, nil, err
	}
	if !isLoopback(host) && cfg.Token == "" && len(cfg.NKeys) == 0 {
		return nil, nil, fmt.Errorf("cluster: server: --listen %s reaches beyond this machine: give a token or NKeys", cfg.Listen)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("cluster: server: %w", err)
	}
	o := &server.Options{
		ServerName: "kumalak", Host: host, Port: port, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: cfg.Dir, MaxPayload: 8 << 20, Authorization: cfg.Token,
	}
	if port == 0 {
		o.Port = server.RANDOM_PORT
	}
	var seed []byte
	if len(cfg.NKeys) > 0 {
		if seed, err = nkeyUsers(o, cfg.NKeys); err != nil {
			return nil, nil, err
		}
	}
	if err := serverTLS(o, cfg); err != nil {
		return nil, nil, err
	}
	return o, seed, nil
}

// nkeyUsers allows the given public keys and one made for the process itself.
func nkeyUsers(o *server.Options, keys []string) ([]byte, error) {
	o.Authorization = ""
	for _, k := range keys {
		if !nkeys.IsValidPublicUserKey(k) {
			return nil, fmt.Errorf("cluster: server: %q is not a public user NKey (U...)", k)
		}
		o.Nkeys = append(o.Nkeys, &server.NkeyUser{Nkey: k})
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("cluster: server: %w", err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return nil, fmt.Errorf("cluster: server: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return nil, fmt.Errorf("cluster: server: %w", err)
	}
	o.Nkeys = append(o.Nkeys, &server.NkeyUser{Nkey: pub})
	return seed, nil
}

func serverTLS(o *server.Options, cfg *ServerConfig) error {
	if (cfg.TLSCert == "") != (cfg.TLSKey == "") {
		return errors.New("cluster: server: TLS needs both a certificate and a key file")
	}
	if cfg.TLSCert == "" {
		return nil
	}
	tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: cfg.TLSCert, KeyFile: cfg.TLSKey})
	if err != nil {
		return fmt.Errorf("cluster: server: TLS: %w", err)
	}
	o.TLSConfig, o.TLS, o.TLSTimeout = tc, true, 5
	return nil
}

// probe fails at once, wrapping ErrAddrInUse, when host:port cannot be
// listened on (the server itself would only fail to become ready).
func probe(host string, port int) error {
	if port <= 0 {
		return nil
	}
	l, err := stdnet.Listen("tcp", stdnet.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("cluster: start server on %s: %w (%v)", stdnet.JoinHostPort(host, strconv.Itoa(port)), ErrAddrInUse, err)
	}
	return l.Close()
}

func splitListen(addr string) (string, int, error) {
	host, p, err := stdnet.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("cluster: listen address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("cluster: listen address %q: port out of range 0..65535", addr)
	}
	if host == "" {
		host = "0.0.0.0"
	}
	return host, port, nil
}

// isLoopback reports whether host is a loopback name or address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := stdnet.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// URL returns the address clients reach the server at, e.g.
// "nats://127.0.0.1:4222" (tls:// when TLS is on).
func (s *Server) URL() string {
	u := s.ns.ClientURL()
	if s.cfg.TLSCert != "" && strings.HasPrefix(u, "nats://") {
		u = "tls://" + strings.TrimPrefix(u, "nats://")
	}
	return u
}

// Addr returns the host:port the server listens on.
func (s *Server) Addr() string { return s.ns.Addr().String() }

// Connect connects this process to its own server, in-process (no socket),
// with the server's credentials.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.InProcessServer(s.ns), nats.MaxReconnects(-1)}
	switch {
	case s.seed != nil:
		o, err := nkeyOption(s.seed)
		if err != nil {
			return nil, err
		}
		opts = append(opts, o)
	case s.cfg.Token != "":
		opts = append(opts, nats.Token(s.cfg.Token))
	}
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, fmt.Errorf("cluster: connect in-process: %w", err)
	}
	return nc, nil
}

// Close shuts the server down and waits until it has; what JetStream
// stored stays in the storage folder.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// NewToken returns a random 128-bit token in hex.
func NewToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("cluster: token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// writeSecret writes b to path readable by its owner only.
func writeSecret(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	return nil
}
