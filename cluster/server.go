package cluster

import (
	"bytes"
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
	// "" listens on 127.0.0.1 at a free port.
	Listen string
	// Roster is the run's roster file (RosterFile): the server admits the
	// holder of each active key in it with that worker's rights
	// (WorkerPermissions), rereading it every RosterPoll; "" or a missing
	// file admits no worker.
	Roster string
	// TrainerToken is the trainer's own secret, which gets every right;
	// "" = a random one, for the in-process connection only (Connect).
	TrainerToken string
	// TLSCert and TLSKey, when both set, are the PEM files of the server's
	// certificate and key; clients must then connect with TLS.
	TLSCert, TLSKey string
	// Log receives what the server has to say about the roster (a file it
	// cannot read, a worker cut off); nil = nothing.
	Log func(msg string)
}

// ErrAddrInUse is wrapped by StartServer when another process holds the
// listen address.
var ErrAddrInUse = errors.New("address in use")

// Server is a running embedded NATS server.
type Server struct {
	ns     *server.Server
	cfg    ServerConfig
	secret string // the trainer's own token: all permissions, never leaves the process
	auth   *auth
	stop   chan struct{} // ends the roster's watch
	done   chan struct{}
	reload sync.Mutex // over last
	last   []byte     // the roster file as last read
	missAt time.Time  // the last reread for an unknown key
}

// StartServer starts an embedded NATS server with JetStream file storage in
// cfg.Dir and waits until it accepts clients.
func StartServer(cfg ServerConfig) (*Server, error) {
	opts, a, err := serverOptions(&cfg)
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
	s := &Server{ns: ns, cfg: cfg, secret: a.trainer, auth: a, stop: make(chan struct{}), done: make(chan struct{})}
	if cfg.Roster != "" {
		s.last, _ = os.ReadFile(cfg.Roster) // what serverOptions read
		a.mu.Lock()                         // clients may be authenticating already
		a.miss = s.missed
		a.mu.Unlock()
	}
	go s.watchRoster()
	return s, nil
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

func serverOptions(cfg *ServerConfig) (*server.Options, *auth, error) {
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
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("cluster: server: %w", err)
	}
	a := &auth{trainer: cfg.TrainerToken}
	if a.trainer == "" {
		if a.trainer, err = NewToken(); err != nil {
			return nil, nil, err
		}
	}
	if cfg.Roster != "" {
		if a.roster, err = ReadRoster(cfg.Roster); err != nil {
			return nil, nil, fmt.Errorf("cluster: server: %w", err)
		}
	}
	o := &server.Options{
		ServerName: "kumalak", Host: host, Port: port, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: cfg.Dir, MaxPayload: 8 << 20,
		CustomClientAuthentication: a, AlwaysEnableNonce: true,
	}
	if port == 0 {
		o.Port = server.RANDOM_PORT
	}
	if err := serverTLS(o, cfg); err != nil {
		return nil, nil, err
	}
	return o, a, nil
}

// auth admits the trainer (its in-process secret: every permission) and
// the holders of the roster's active keys, each with its worker's rights
// only; nobody else.
type auth struct {
	trainer string
	mu      sync.Mutex
	miss    func()  // a key not in the roster: reread it (nil: none to reread); under mu, set once the server runs
	roster  *Roster // nil: no worker
}

// Check implements server.Authentication.
func (a *auth) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	switch {
	case o.Token != "" && secretEqual(o.Token, a.trainer):
		c.RegisterUser(&server.User{Username: "trainer"})
	case o.Nkey != "":
		cred, run, ok := a.active(o.Nkey)
		a.mu.Lock()
		miss := a.miss
		a.mu.Unlock()
		if !ok && miss != nil {
			miss() // issued since the last poll?
			cred, run, ok = a.active(o.Nkey)
		}
		if !ok || !verifyNonce(o.Nkey, o.Sig, c.GetNonce()) {
			return false
		}
		c.RegisterUser(&server.User{Username: o.Nkey, Permissions: WorkerPermissions(run, cred.Worker)})
	default:
		return false
	}
	return true
}

// active returns key's active credential and its run.
func (a *auth) active(key string) (Credential, string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.roster.Active(key)
	if !ok {
		return c, "", false
	}
	return c, a.roster.Run, true
}

// setRoster makes r the roster and returns the keys active before and not
// now: those to cut off.
func (a *auth) setRoster(r *Roster) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var gone []string
	if a.roster != nil {
		sameRun := r != nil && r.Run == a.roster.Run
		for _, c := range a.roster.Workers {
			if _, still := r.Active(c.Key); c.Revoked == nil && (!still || !sameRun) {
				gone = append(gone, c.Key)
			}
		}
	}
	a.roster = r
	return gone
}

// watchRoster rereads the roster every RosterPoll until Close.
func (s *Server) watchRoster() {
	defer close(s.done)
	if s.cfg.Roster == "" {
		return
	}
	tick := time.NewTicker(RosterPoll)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			for _, key := range s.reloadRoster() {
				s.cutOff(key)
			}
		}
	}
}

// reloadRoster rereads the roster; when it changed, it takes the new one
// and returns the keys no longer active, whose clients are to be cut off
// (their reconnections are refused from now on). A roster that cannot be
// read is logged, and the last good one stays.
func (s *Server) reloadRoster() []string {
	s.reload.Lock()
	defer s.reload.Unlock()
	b, err := os.ReadFile(s.cfg.Roster)
	if errors.Is(err, os.ErrNotExist) {
		b, err = nil, nil
	}
	if err != nil || bytes.Equal(b, s.last) {
		return nil
	}
	s.last = b
	r := (*Roster)(nil)
	if b != nil {
		if r, err = ParseRoster(b); err != nil {
			s.logf("cluster: %v (%s): keeping the roster read before", err, s.cfg.Roster)
			return nil
		}
	}
	return s.auth.setRoster(r)
}

// missed rereads the roster for a key it does not hold, at most once per
// missGap: a worker issued its credentials a moment ago is admitted at
// once, and strangers knocking cannot make the server read the file more
// often. A miss within missGap of the last reread waits for the next one
// (at most missGap) instead of skipping it: a worker issued just after a
// stranger knocked is admitted all the same.
func (s *Server) missed() {
	s.reload.Lock()
	now := time.Now()
	due := s.missAt.Add(missGap)
	if !now.Before(due) {
		due = now
	}
	s.missAt = due
	s.reload.Unlock()
	time.Sleep(time.Until(due))
	if gone := s.reloadRoster(); len(gone) > 0 {
		go func() { // not from within the server's authentication of a client
			for _, key := range gone {
				s.cutOff(key)
			}
		}()
	}
}

// missGap is the least time between two rereads of the roster for an
// unknown key.
const missGap = 100 * time.Millisecond

// cutOff disconnects every client signed in with key.
func (s *Server) cutOff(key string) {
	cz, err := s.ns.Connz(&server.ConnzOptions{User: key, Limit: 1 << 16})
	if err != nil {
		s.logf("cluster: cut off key %s: %v", key, err)
		return
	}
	for _, c := range cz.Conns {
		if err := s.ns.DisconnectClientByID(c.Cid); err == nil {
			s.logf("cluster: cut off client %d %q: its key %s is revoked", c.Cid, c.Name, key)
		}
	}
}

func (s *Server) logf(format string, args ...any) {
	if s.cfg.Log != nil {
		s.cfg.Log(fmt.Sprintf(format, args...))
	}
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

// WorkerPermissions are what worker of run may do, and nothing more:
// publish its batches and heartbeats on its own subjects of its run; read
// its run's settings and best version (direct gets of those keys) and the
// networks (direct gets of the object store's messages); receive replies
// on its own inbox prefix (InboxPrefix). It may not subscribe to any other
// subject (another worker's replies, the trainer's pulls), write a key,
// touch a stream or make a consumer of any (so it cannot have the server
// deliver anything anywhere), or read another run's settings. The example
// server configuration in docs/DISTRIBUTED.md grants the same.
func WorkerPermissions(run, worker string) *server.Permissions {
	return &server.Permissions{
		Publish: &server.SubjectPermission{Allow: []string{
			Subject(run, worker),
			HeartbeatSubject(run, worker),
			"$JS.API.STREAM.INFO.KV_" + SettingsBucket,
			"$JS.API.DIRECT.GET.KV_" + SettingsBucket + ".$KV." + SettingsBucket + "." + run + ".>",
			"$JS.API.STREAM.INFO.OBJ_" + ModelsBucket,
			"$JS.API.DIRECT.GET.OBJ_" + ModelsBucket,
			"$JS.API.DIRECT.GET.OBJ_" + ModelsBucket + ".>",
		}},
		Subscribe: &server.SubjectPermission{Allow: []string{InboxPrefix(run, worker) + ".>"}},
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
// as the trainer: with every permission, its replies on TrainerInbox.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.Name(name), nats.InProcessServer(s.ns), nats.MaxReconnects(-1), nats.Token(s.secret),
		nats.CustomInboxPrefix(TrainerInbox))
	if err != nil {
		return nil, fmt.Errorf("cluster: connect in-process: %w", err)
	}
	return nc, nil
}

// Close shuts the server down and waits until it has; what JetStream
// stored stays in the storage folder.
func (s *Server) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
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
