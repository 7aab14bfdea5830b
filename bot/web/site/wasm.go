package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// wasmFiles returns kumalak.wasm (built from the source, or c.Wasm) and
// the toolchain's wasm_exec.js.
func wasmFiles(ctx context.Context, c Config) (wasm, execJS []byte, err error) {
	goroot, err := goEnv(c.Go, "GOROOT")
	if err != nil {
		return nil, nil, err
	}
	if execJS, err = os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js")); err != nil {
		return nil, nil, fmt.Errorf("site: the toolchain's wasm_exec.js: %w", err)
	}
	if c.Wasm != "" {
		if wasm, err = os.ReadFile(c.Wasm); err != nil {
			return nil, nil, badInput("--wasm: %v", err)
		}
		return wasm, execJS, nil
	}
	src := c.Src
	if src == "" {
		if src, err = SourceTree(); err != nil {
			return nil, nil, err
		}
	} else if !IsSourceTree(src) {
		return nil, nil, badInput("--src %s: not the kumalak source tree (no go.mod of module kumalak)", src)
	}
	tmp, err := os.MkdirTemp("", "kumalak-web-")
	if err != nil {
		return nil, nil, fmt.Errorf("site: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, WasmFile)
	cmd := exec.CommandContext(ctx, c.Go, "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./cmd/kumalak-wasm")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("site: build the wasm in %s: %v\n%s", src, err, msg)
	}
	if wasm, err = os.ReadFile(out); err != nil {
		return nil, nil, fmt.Errorf("site: %w", err)
	}
	return wasm, execJS, nil
}

// goEnv returns one variable of `go env`.
func goEnv(goBin, name string) (string, error) {
	out, err := exec.Command(goBin, "env", name).Output()
	if err != nil {
		return "", badInput("--go %s: go env %s: %v (the site needs the Go toolchain)", goBin, name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// SourceTree returns the kumalak source tree holding the working folder,
// else the one this binary was built from, when it is still there (not
// for a -trimpath build).
func SourceTree() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("site: %w", err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if IsSourceTree(d) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		if d := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file)))); IsSourceTree(d) { // bot/web/site/wasm.go
			return d, nil
		}
	}
	return "", badInput("%s is not in the kumalak source tree, which the wasm is built from: run web there, or give --src DIR or --wasm FILE", dir)
}

// IsSourceTree reports whether dir holds kumalak's go.mod and the wasm's
// main package.
func IsSourceTree(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(string(b), "\n")
	_, err = os.Stat(filepath.Join(dir, "cmd", "kumalak-wasm"))
	return strings.TrimSpace(first) == "module kumalak" && err == nil
}

// bundleJS writes kumalak-bundle.js: the worker's source (wasm_exec.js,
// then worker.js), the wasm and the model files as base64.
func bundleJS(execJS, worker, wasm []byte, files map[string][]byte) ([]byte, error) {
	b64 := map[string]string{}
	for p, data := range files {
		b64[p] = base64.StdEncoding.EncodeToString(data)
	}
	v := struct {
		Worker string            `json:"worker"`
		Wasm   string            `json:"wasm"`
		Files  map[string]string `json:"files"`
	}{string(execJS) + "\n" + string(worker), base64.StdEncoding.EncodeToString(wasm), b64}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("site: the bundle: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString("// Written by kumalak web: the bot for the page opened from file:// (static.js).\nvar KUMALAK_BUNDLE = ")
	buf.Write(js)
	buf.WriteString(";\n")
	return buf.Bytes(), nil
}

// gzipSize returns the size of b gzipped (the default level, as web
// servers compress).
func gzipSize(b []byte) int {
	var n countWriter
	zw := gzip.NewWriter(&n)
	_, _ = zw.Write(b) // countWriter never fails
	_ = zw.Close()
	return int(n)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
