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
)

// ErrRefused is wrapped by Connect when the server turns the credentials down.
var ErrRefused = errors.New("the server refused the credentials")

// ConnConfig says how a client reaches a NATS server.
type ConnConfig struct {
	URL      string                  // e.g. nats://host:4222, tls://host:4222; a comma-separated list for a cluster
	Token    string                  // the server's token, if it wants one
	NKeySeed string                  // file holding a user NKey seed ("SU..."), if the server wants NKeys
	CAFile   string                  // PEM file of the CA that signed a TLS server's certificate; "" = system roots
	Name     string                  // client name shown by the server's monitoring
	Log      func(msg string)        // connection events (disconnect, reconnect); nil = none
	Backoff  func(int) time.Duration // delay before attempt n >= 1; nil = Backoff
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
			return nil, fmt.Errorf("cluster: connect %s: %w (%v): check --token or --nkey", cfg.URL, ErrRefused, err)
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
