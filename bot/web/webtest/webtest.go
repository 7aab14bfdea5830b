// Package webtest drives the web page (bot/web/page) in headless Chromium for
// the tests of bot and cmd/kumalak: the browser found or the test skipped,
// a page opened with its console watched, and the steps the tests take.
// Only tests import it.
package webtest

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Chromium returns the browser's path, skipping the test when there is
// none, unless CI=true, where a missing browser fails it.
func Chromium(t testing.TB) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed, and CI=true needs the browser test")
	}
	t.Skip("chromium is not installed")
	return ""
}

// Config sets up a page.
type Config struct {
	Browser       string        // Chromium's path
	Width, Height int64         // the viewport
	Limit         time.Duration // the whole session's time
	WaitTimeout   time.Duration // Wait's; 0: 15 s
	WaitInterval  time.Duration // Wait's polling interval; 0: the browser's frames
}

// Page is a browser tab of a test, its console errors and exceptions
// collected for CheckConsole.
type Page struct {
	T   testing.TB
	Ctx context.Context
	cfg Config

	mu       sync.Mutex
	problems []string
}

// Open starts the browser for t, closed when t ends, and sets the
// viewport; Load then opens a page.
func Open(t testing.TB, cfg Config) *Page {
	parent, cancelAll := context.WithTimeout(context.Background(), cfg.Limit)
	actx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(cfg.Browser), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewContext(actx)
	p := &Page{T: t, Ctx: ctx, cfg: cfg}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		cancelAll()
	})
	// Start the browser here, once: after a failed start (a slow machine),
	// a later call on ctx would start a second browser, and chromedp
	// closes the context's channel twice when both have exited: a panic
	// that ends the whole test binary.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start the browser %s: %v", cfg.Browser, err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				p.mu.Lock()
				p.problems = append(p.problems, m.String())
				p.mu.Unlock()
			}
		}
	}()
	p.Run("viewport", chromedp.EmulateViewport(cfg.Width, cfg.Height))
	return p
}

// Run takes the steps, failing the test with what and the page's message
// line (#message) when one fails.
func (p *Page) Run(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.T.Helper()
	if err := chromedp.Do(p.Ctx, steps...); err != nil {
		p.T.Fatalf("%s: %v (page message %q)", what, err, p.TextOr(`document.getElementById("message")?.textContent ?? ""`))
	}
}

// Text evaluates js to a string, failing the test on an error.
func (p *Page) Text(js string) string {
	p.T.Helper()
	s, err := chromedp.Run(p.Ctx, chromedp.Evaluate[string](js))
	if err != nil {
		p.T.Fatalf("%s: %v", js, err)
	}
	return s
}

// TextOr evaluates js to a string, or the error's text.
func (p *Page) TextOr(js string) string {
	s, err := chromedp.Run(p.Ctx, chromedp.Evaluate[string](js))
	if err != nil {
		return err.Error()
	}
	return s
}

// Wait is a step that waits until js is true.
func (p *Page) Wait(js string) chromedp.Action[chromedp.Void] {
	opts := []chromedp.PollOption{chromedp.WithPollingTimeout(cmp.Or(p.cfg.WaitTimeout, 15*time.Second))}
	if p.cfg.WaitInterval > 0 {
		opts = append(opts, chromedp.WithPollingInterval(p.cfg.WaitInterval))
	}
	return chromedp.Poll[chromedp.Void](js, opts...)
}

// CheckConsole fails the test on console errors.
func (p *Page) CheckConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.problems {
		p.T.Errorf("browser console: %s", m)
	}
}
