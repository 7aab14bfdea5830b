package cluster

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	stdnet "net"
	"os"
	"path/filepath"
	"strings"
)

// DefaultListen is the trainer's embedded server address unless it is told
// otherwise: loopback, at NATS's usual port.
const DefaultListen = "127.0.0.1:4222"

// StartHost starts a trainer's embedded server (StartServer) by the host
// policy: a listen address that reaches beyond this machine, with neither
// a token nor NKeys, gets a token made and kept in tokenFile, readable by
// its owner only (a resumed run reuses the one there); DefaultListen, when
// another process holds it, gives way to a free loopback port. It returns
// the server and the token file whose token it serves, "" when it made
// none.
func StartHost(cfg ServerConfig, tokenFile string) (*Server, string, error) {
	return startHost(cfg, tokenFile, DefaultListen)
}

// startHost is StartHost with usual as the address that gives way.
func startHost(cfg ServerConfig, tokenFile, usual string) (*Server, string, error) {
	made := ""
	if cfg.Token == "" && len(cfg.NKeys) == 0 && !LoopbackAddr(cmp.Or(cfg.Listen, "127.0.0.1:0")) {
		tok, err := keptToken(tokenFile)
		if err != nil {
			return nil, "", err
		}
		cfg.Token, made = tok, tokenFile
	}
	srv, err := StartServer(cfg)
	if errors.Is(err, ErrAddrInUse) && cfg.Listen == usual {
		cfg.Listen = "127.0.0.1:0" // another trainer has the usual port: any will do on loopback
		srv, err = StartServer(cfg)
	}
	if err != nil {
		return nil, "", err
	}
	return srv, made, nil
}

// LoopbackAddr reports whether a listen address, host:port or a bare host,
// stays on this machine: "localhost", 127.0.0.0/8 or ::1. An empty host
// (every interface) does not.
func LoopbackAddr(addr string) bool {
	host, _, err := stdnet.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	return isLoopback(host)
}

// ReadToken returns the token a token file holds, its spaces and line
// end trimmed: the file StartHost keeps, copied to a worker.
func ReadToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("cluster: token: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// keptToken returns the token kept in path, making one there first when
// there is none.
func keptToken(path string) (string, error) {
	if tok, err := ReadToken(path); err == nil && tok != "" {
		return tok, nil
	}
	tok, err := NewToken()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("cluster: token: %w", err)
	}
	return tok, writeSecret(path, []byte(tok+"\n"))
}

// ReadNKeys reads a file of the workers' public NKeys (ParseNKeys).
func ReadNKeys(path string) ([]WorkerKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cluster: nkeys: %w", err)
	}
	defer f.Close()
	keys, err := ParseNKeys(f)
	if err != nil {
		return nil, fmt.Errorf("cluster: nkeys %s: %w", path, err)
	}
	return keys, nil
}

// ParseNKeys reads public keys, one a line, each optionally followed by
// the worker id it may publish as; '#' starts a comment. No key at all is
// an error.
func ParseNKeys(r io.Reader) ([]WorkerKey, error) {
	var keys []WorkerKey
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		switch f := strings.Fields(line); len(f) {
		case 0:
		case 1, 2:
			keys = append(keys, WorkerKey{Public: f[0], Worker: strings.Join(f[1:], "")})
		default:
			return nil, fmt.Errorf("line %d: want a key and at most a worker id", n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, errors.New("no keys")
	}
	return keys, nil
}
