package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkWebWasm measures the static site in headless Chromium: the
// time from opening the page to the bot built (load_ms), and the wasm
// bot's network rows and MCTS simulations a second with togyz's shipped
// model, the measurement `go run ./cmd/kumalak-wasm -speed` makes natively
// (BENCHMARKS.md compares them). It ignores b.N: one measurement.
func BenchmarkWebWasm(b *testing.B) {
	path := chromium(b)
	site := b.TempDir()
	if code, out, errs := kumalak(b, "web", "--out", site, "--bundle=false"); code != 0 {
		b.Fatalf("web: exit %d: %s%s", code, out, errs)
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer ts.Close()
	began := time.Now()
	p := openSite(b, path, ts.URL+"/")
	load := time.Since(began)
	var sp struct {
		Speed struct {
			RowsPerSec float64 `json:"rows_per_sec"`
			SimsPerSec float64 `json:"sims_per_sec"`
			Kernel     string  `json:"kernel"`
		} `json:"speed"`
		Error string `json:"error"`
	}
	js, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`siteSpeed("togyz", 8, 20000, 2000).then((r) => JSON.stringify(r))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal([]byte(js), &sp); err != nil || sp.Error != "" {
		b.Fatalf("speed %s: %v", js, err)
	}
	b.Logf("wasm in Chromium: %s", js)
	b.ReportMetric(float64(load.Milliseconds()), "load_ms")
	b.ReportMetric(sp.Speed.RowsPerSec, "rows/s")
	b.ReportMetric(sp.Speed.SimsPerSec, "sims/s")
}
