package cluster

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	stdnet "net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
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
	// Token, when set, is the workers' secret: a client presenting it gets
	// a worker's permissions (WorkerPermissions).
	Token string
	// NKeys are the workers' public user keys allowed to connect, each with
	// a worker's permissions; a key naming a worker may publish only under
	// that worker's id.
	NKeys []WorkerKey
	// TrainerToken is the trainer's own secret, which gets every right;
	// "" = a random one, for the in-process connection only (Connect).
	TrainerToken string
	// TLSCert and TLSKey, when both set, are the PEM files of the server's
	// certificate and key; clients must then connect with TLS.
	TLSCert, TLSKey string
}

// WorkerKey is a worker's public user NKey ("U..."), and the worker id it
// must publish under ("" = any).
type WorkerKey struct {
	Public, Worker string
}

// ErrAddrInUse is wrapped by StartServer when another process holds the
// listen address.
var ErrAddrInUse = errors.New("address in use")

// Server is a running embedded NATS server.
type Server struct {
	ns     *server.Server
	cfg    ServerConfig
	secret string // the trainer's own token: all permissions, never leaves the process
}

// StartServer starts an embedded NATS server with JetStream file storage in
// cfg.Dir and waits until it accepts clients.
func StartServer(cfg ServerConfig) (*Server, error) {
	opts, secret, err := serverOptions(&cfg)
	if err != nil {
		return nil, err
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("cluster: start server: %w", err)
	}
	var fail startLog
	ns.SetLogger(&fail, false, false)
	ns.Start() // returns once it listens, or has logged why it cannot
	if err := fail.err(); err != nil {
		ns.Shutdown()
		ns.WaitForShutdown()
		if errors.Is(err, syscall.EADDRINUSE) {
			err = fmt.Errorf("%w (%v)", ErrAddrInUse, err)
		}
		return nil, fmt.Errorf("cluster: start server on %s: %w", cfg.Listen, err)
	}
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("cluster: start server on %s: not ready after 30s", cfg.Listen)
	}
	return &Server{ns: ns, cfg: cfg, secret: secret}, nil
}

// startLog is the embedded server's logger: it keeps the first fatal
// error (a listen address another process holds, a storage folder that
// cannot be used), which the server only logs, and drops the rest.
// Checking it after Start closes the race that a probe of the address
// before starting leaves open: two trainers starting at once both find
// the port free, and the later bind failed without a word.
type startLog struct {
	mu    sync.Mutex
	fatal error
}

func (l *startLog) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}

// Fatalf implements server.Logger: it keeps the first fatal error, the
// error among v when there is one (so that errors.Is sees its cause).
func (l *startLog) Fatalf(format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal != nil {
		return
	}
	l.fatal = fmt.Errorf(format, v...)
	for _, a := range v {
		if e, ok := a.(error); ok {
			l.fatal = e
			break
		}
	}
}

func (*startLog) Noticef(string, ...any) {}
func (*startLog) Warnf(string, ...any)   {}
func (*startLog) Errorf(string, ...any)  {}
func (*startLog) Debugf(string, ...any)  {}
func (*startLog) Tracef(string, ...any)  {}

func serverOptions(cfg *ServerConfig) (*server.Options, string, error) {
	if cfg.Dir == "" {
		return nil, "", errors.New("cluster: server: no storage folder")
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	host, port, err := splitListen(cfg.Listen)
	if err != nil {
		return nil, "", err
	}
	if !isLoopback(host) && cfg.Token == "" && len(cfg.NKeys) == 0 {
		return nil, "", fmt.Errorf("cluster: server: --listen %s reaches beyond this machine: give a token or NKeys", cfg.Listen)
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("cluster: server: %w", err)
	}
	secret := cfg.TrainerToken
	if secret == "" {
		var err error
		if secret, err = NewToken(); err != nil {
			return nil, "", err
		}
	}
	auth := &auth{trainer: secret, token: cfg.Token, keys: map[string]string{}, open: cfg.Token == "" && len(cfg.NKeys) == 0}
	for _, k := range cfg.NKeys {
		if !nkeys.IsValidPublicUserKey(k.Public) {
			return nil, "", fmt.Errorf("cluster: server: %q is not a public user NKey (U...)", k.Public)
		}
		if k.Worker != "" {
			if err := ValidWorker(k.Worker); err != nil {
				return nil, "", fmt.Errorf("cluster: server: key %s: %w", k.Public, err)
			}
		}
		auth.keys[k.Public] = k.Worker
	}
	o := &server.Options{
		ServerName: "kumalak", Host: host, Port: port, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: cfg.Dir, MaxPayload: 8 << 20,
		CustomClientAuthentication: auth, AlwaysEnableNonce: len(cfg.NKeys) > 0,
	}
	if port == 0 {
		o.Port = server.RANDOM_PORT
	}
	if err := serverTLS(o, cfg); err != nil {
		return nil, "", err
	}
	return o, secret, nil
}

// auth admits the trainer (its in-process secret: every permission) and
// workers (the token, one of the keys, or, on a server with neither,
// anyone on loopback), these with WorkerPermissions only.
type auth struct {
	trainer string
	token   string
	keys    map[string]string // public key -> worker id it may publish as ("" = any)
	open    bool              // no worker credentials: any client is a worker
}

// Check implements server.Authentication.
func (a *auth) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	switch {
	case o.Token != "" && secretEqual(o.Token, a.trainer):
		c.RegisterUser(&server.User{Username: "trainer"})
	case o.Token != "" && a.token != "" && secretEqual(o.Token, a.token):
		c.RegisterUser(&server.User{Username: "worker", Permissions: WorkerPermissions("")})
	case o.Nkey != "":
		worker, ok := a.keys[o.Nkey]
		if !ok || !verifyNonce(o.Nkey, o.Sig, c.GetNonce()) {
			return false
		}
		c.RegisterUser(&server.User{Username: o.Nkey, Permissions: WorkerPermissions(worker)})
	case a.open && o.Token == "" && o.Username == "":
		c.RegisterUser(&server.User{Username: "worker", Permissions: WorkerPermissions("")})
	default:
		return false
	}
	return true
}

func secretEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// verifyNonce checks a client's signature of the server's nonce.
func verifyNonce(pub, sig string, nonce []byte) bool {
	b, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		if b, err = base64.StdEncoding.DecodeString(sig); err != nil {
			return false
		}
	}
	kp, err := nkeys.FromPublicKey(pub)
	return err == nil && len(nonce) > 0 && kp.Verify(nonce, b) == nil
}

// WorkerPermissions are what a worker may do, and nothing more: publish
// batches and heartbeats under its id (worker "" = any id), and read the
// runs' settings and networks (the key-value and object-store read
// requests of JetStream's API); replies come to its inboxes. It may not
// write a key, touch a stream or a consumer of the samples, or read the
// batches. The example server configuration in docs/DISTRIBUTED.md grants
// the same.
func WorkerPermissions(worker string) *server.Permissions {
	id := worker
	if id == "" {
		id = "*"
	}
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			SubjectPrefix + "*." + id,
			HeartbeatPrefix + "*." + id,
			"$JS.API.STREAM.INFO.KV_" + SettingsBucket,
			"$JS.API.DIRECT.GET.KV_" + SettingsBucket + ".>",
			"$JS.API.STREAM.INFO.OBJ_" + ModelsBucket,
			"$JS.API.DIRECT.GET.OBJ_" + ModelsBucket + ".>",
			"$JS.API.CONSUMER.CREATE.OBJ_" + ModelsBucket + ".>",
			"$JS.API.CONSUMER.DELETE.OBJ_" + ModelsBucket + ".>",
			"$JS.FC.OBJ_" + ModelsBucket + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{"_INBOX.>"}},
	}
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
// as the trainer: with every permission.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.Name(name), nats.InProcessServer(s.ns), nats.MaxReconnects(-1), nats.Token(s.secret))
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
