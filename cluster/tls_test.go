package cluster

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	stdnet "net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for 127.0.0.1 and its key,
// and returns their paths (the certificate is its own CA).
func selfSigned(t *testing.T) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kumalak test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []stdnet.IP{stdnet.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for path, blk := range map[string]*pem.Block{cert: {Type: "CERTIFICATE", Bytes: der}, key: {Type: "EC PRIVATE KEY", Bytes: kb}} {
		if err := os.WriteFile(path, pem.EncodeToMemory(blk), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return cert, key
}

func TestTLS(t *testing.T) {
	cert, key := selfSigned(t)
	roster, creds := issueAll(t, "tls", "w1")
	s := startServer(t, ServerConfig{Roster: roster, TLSCert: cert, TLSKey: key})
	if !strings.HasPrefix(s.URL(), "tls://") {
		t.Fatalf("URL %s: want tls://", s.URL())
	}
	w1 := creds["w1"]
	nc := dial(t, ConnConfig{URL: s.URL(), Creds: &w1, CAFile: cert})
	if _, err := nc.TLSConnectionState(); err != nil {
		t.Fatalf("not TLS: %v", err)
	}
	in, err := s.Connect("trainer")
	if err != nil {
		t.Fatalf("in-process: %v", err)
	}
	in.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if _, err := Connect(ctx, ConnConfig{URL: s.URL(), Creds: &w1}); err == nil || !strings.Contains(err.Error(), "--tls-ca") || ctx.Err() != nil {
		t.Fatalf("without the CA: got %v, want an immediate error naming --tls-ca", err)
	}
	if _, err := StartServer(ServerConfig{Dir: t.TempDir(), TLSCert: cert}); err == nil {
		t.Fatal("TLS with a certificate and no key started")
	}
}
