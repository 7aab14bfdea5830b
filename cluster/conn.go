package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// ErrRefused is wrapped by Connect when the server turns the credentials down.
var ErrRefused = errors.New("the server refused the credentials")

// ConnConfig says how a client reaches a NATS server.
type ConnConfig struct {
	URL string // e.g. nats://host:4222, tls://host:4222; a comma-separated list for a cluster
	// Creds are a worker's credentials (WorkerCreds): it signs in with
	// their key and takes its replies on their InboxPrefix.
	Creds    *WorkerCreds
	Token    string // a standalone server's token, if it wants one
	NKeySeed string // file holding a user NKey seed ("SU..."), for a standalone server that wants NKeys
	// InboxPrefix is where replies come ("" = Creds' prefix, or NATS's
	// "_INBOX"): the subjects a standalone server lets this client
	// subscribe to.
	InboxPrefix string
	CAFile      string                  // PEM file of the CA that signed a TLS server's certificate; "" = system roots
	Name        string                  // client name shown by the server's monitoring
	Log         func(msg string)        // connection events (disconnect, reconnect); nil = none
	Backoff     func(int) time.Duration // delay before attempt n >= 1; nil = Backoff
	// Refused is called when the server refuses a reconnection for the
	// credentials (they were revoked); the connection keeps trying
	// meanwhile. nil = only Log hears of it.
	Refused func(error)
}

// Backoff is the default reconnect delay: 250ms doubling per attempt, at most 5s.
func Backoff(attempt int) time.Duration {
	d := 250 * time.Millisecond
	for i := 1; i < attempt && d < 5*time.Second; i++ {
		d *= 2
	}
	return min(d, 5*time.Second)
}

// Jitter spreads a delay over [d/2, d), so that clients cut off together
// do not come back together.
func Jitter(d time.Duration) time.Duration {
	if d < 2 {
		return d
	}
	return d/2 + rand.N(d/2)
}

// Connect connects to the server, retrying with backoff until ctx ends while
// the server cannot be reached, and failing at once, wrapping ErrRefused,
// when it refuses the credentials. The connection then reconnects by
// itself, forever, whenever it is lost; messages published meanwhile wait
// in its buffer.
func Connect(ctx context.Context, cfg ConnConfig) (*nats.Conn, error) {
	opts, err := connOptions(cfg)
	if err != nil {
		return nil, err
	}
	backoff := cfg.Backoff
	if backoff == nil {
		backoff = Backoff
	}
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(cfg.URL, opts...)
		if err == nil {
			return nc, nil
		}
		if isAuthError(err) {
			return nil, fmt.Errorf("cluster: connect %s: %w (%v): %s", cfg.URL, ErrRefused, err, checkHint(cfg))
		}
		if isTLSError(err) {
			return nil, fmt.Errorf("cluster: connect %s: TLS: %w: check the URL's scheme (tls://) and --tls-ca", cfg.URL, err)
		}
		if cfg.Log != nil && (attempt == 1 || attempt%20 == 0) {
			cfg.Log(fmt.Sprintf("nats: connect %s: %v; retrying", cfg.URL, err))
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("cluster: connect %s: %w (last error: %v)", cfg.URL, ctx.Err(), err)
		case <-time.After(Jitter(backoff(attempt))):
		}
	}
}

func connOptions(cfg ConnConfig) ([]nats.Option, error) {
	if cfg.URL == "" {
		return nil, errors.New("cluster: connect: no server URL")
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			cfg.Log(fmt.Sprintf(format, args...))
		}
	}
	backoff := cfg.Backoff
	if backoff == nil {
		backoff = Backoff
	}
	opts := []nats.Option{
		nats.Name(cfg.Name), nats.MaxReconnects(-1), nats.IgnoreAuthErrorAbort(),
		nats.CustomReconnectDelay(func(n int) time.Duration { return Jitter(backoff(n)) }),
		nats.ReconnectBufSize(64 << 20), nats.Timeout(10 * time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { logf("nats: disconnected: %v", err) }),
		nats.ReconnectHandler(func(nc *nats.Conn) { logf("nats: reconnected to %s", nc.ConnectedUrlRedacted()) }),
		// A reconnection refused for the credentials comes to the error
		// handler (the server's -ERR), or to the reconnect error handler.
		nats.ReconnectErrHandler(func(_ *nats.Conn, err error) { refusedAgain(cfg, err) }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if !refusedAgain(cfg, err) {
				logf("nats: %v", err)
			}
		}),
	}
	prefix := cfg.InboxPrefix
	if c := cfg.Creds; c != nil {
		if err := c.Validate(); err != nil {
			return nil, err
		}
		kp, err := nkeys.FromSeed([]byte(c.Seed))
		if err != nil {
			return nil, fmt.Errorf("cluster: connect: %w", err)
		}
		pub, _ := c.PublicKey() // valid: checked above
		opts = append(opts, nats.Nkey(pub, kp.Sign))
		if prefix == "" {
			prefix = InboxPrefix(c.Run, c.Worker)
		}
	}
	if prefix != "" {
		opts = append(opts, nats.CustomInboxPrefix(prefix))
	}
	if cfg.Token != "" {
		opts = append(opts, nats.Token(cfg.Token))
	}
	if cfg.NKeySeed != "" {
		o, err := nats.NkeyOptionFromSeed(cfg.NKeySeed)
		if err != nil {
			return nil, fmt.Errorf("cluster: connect: nkey seed %s: %w", cfg.NKeySeed, err)
		}
		opts = append(opts, o)
	}
	if cfg.CAFile != "" {
		opts = append(opts, nats.RootCAs(cfg.CAFile))
	}
	return opts, nil
}

// refusedAgain tells cfg.Refused (and cfg.Log) of an error that refuses
// the credentials, and reports whether err was one.
func refusedAgain(cfg ConnConfig, err error) bool {
	if !isAuthError(err) {
		return false
	}
	err = fmt.Errorf("cluster: %w (%v): %s", ErrRefused, err, checkHint(cfg))
	if cfg.Log != nil {
		cfg.Log(err.Error())
	}
	if cfg.Refused != nil {
		cfg.Refused(err)
	}
	return true
}

// checkHint names the flag to check when the server refuses the credentials.
func checkHint(cfg ConnConfig) string {
	if cfg.Creds != nil {
		return "check --creds (revoked, or issued for another run's trainer?)"
	}
	return "check --creds, --token or --nkey"
}

func isAuthError(err error) bool {
	return errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) ||
		errors.Is(err, nats.ErrAuthRevoked) || errors.Is(err, nats.ErrNkeysNotSupported) ||
		strings.Contains(strings.ToLower(err.Error()), "authorization violation")
}

// isTLSError reports certificate and TLS-mode mismatches, which no retry cures.
func isTLSError(err error) bool {
	var (
		ua x509.UnknownAuthorityError
		ci x509.CertificateInvalidError
		he x509.HostnameError
		rh tls.RecordHeaderError
	)
	return errors.As(err, &ua) || errors.As(err, &ci) || errors.As(err, &he) || errors.As(err, &rh) ||
		errors.Is(err, nats.ErrSecureConnRequired) || errors.Is(err, nats.ErrSecureConnWanted)
}
