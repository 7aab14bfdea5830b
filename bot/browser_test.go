package bot

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium returns the browser's path, skipping the test when there is
// none, unless CI=true, where a missing browser fails it.
func chromium(t *testing.T) string {
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

// TestBrowserPlaysTheBot loads the page in headless Chromium, plays a
// togyz move as white, sees the bot answer, then plays mangala as black
// (the bot opens), and takes a move back.
func TestBrowserPlaysTheBot(t *testing.T) {
	path := chromium(t)
	ts := newTestServer(t, "ab:depth=2", nil)
	parent, cancelAll := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancelAll()
	actx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	var mu sync.Mutex
	var problems []string
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				mu.Lock()
				problems = append(problems, m.String())
				mu.Unlock()
			}
		}
	}()

	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return s
	}
	wait := func(js string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(8*time.Second))
	}

	run("load the page", chromedp.Navigate(ts.URL), chromedp.WaitVisible(chromedp.CSS("#pit-w-7.legal")))
	if n := text(`String(document.querySelectorAll("#board .pit").length)`); n != "18" {
		t.Fatalf("togyz board with %s pits, want 18", n)
	}
	run("play pit 7", chromedp.Click(chromedp.CSS("#pit-w-7")),
		wait(`document.querySelectorAll("#record li").length >= 2 && document.getElementById("botmove").textContent !== ""`))
	if got := text(`document.getElementById("botmove").textContent`); !strings.HasPrefix(got, "Bot played pit ") || !strings.Contains(got, "its chance") {
		t.Errorf("bot move text %q", got)
	}
	if got := text(`document.getElementById("record").textContent`); !strings.HasPrefix(got, "white 7black ") {
		t.Errorf("record %q", got)
	}
	if got := text(`document.getElementById("pit-w-7").dataset.count + "/" + document.getElementById("store-white").textContent`); got == "9/0" {
		t.Errorf("the board did not change: pit 7 and white's kazan read %s", got)
	}

	run("mangala as black", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById("side").value = "b";
		const g = document.getElementById("game");
		g.value = "mangala";
		g.dispatchEvent(new Event("change"));
	})()`), wait(`document.querySelectorAll("#board .pit").length === 12 && document.querySelector("#board .pit.legal") !== null`))
	before := text(`String(document.querySelectorAll("#record li").length)`)
	if !strings.HasPrefix(text(`document.getElementById("record").textContent`), "white ") {
		t.Errorf("playing black, the bot did not open: record %q", text(`document.getElementById("record").textContent`))
	}
	pit := text(`document.querySelector("#board .pit.legal").id`)
	run("play "+pit, chromedp.Click(chromedp.CSS("#"+pit)),
		wait(`document.querySelectorAll("#record li").length > `+before+` && document.querySelector("#board .pit.legal") !== null`))
	run("undo", chromedp.Click(chromedp.CSS("#undo")),
		wait(`document.querySelectorAll("#record li").length === `+before))
	if got := text(`document.getElementById("turn").textContent`); got != "Your move (black)" {
		t.Errorf("after undo: %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Errorf("browser console: %s", p)
	}
}
