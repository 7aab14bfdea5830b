package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"kumalak/bot/web/webtest"
)

// BenchmarkWebWasm measures the static site in headless Chromium: the
// time from the page's navigation to the bot built (load_ms: the page,
// the wasm fetched and compiled, the bots made), and the wasm bot's
// network rows and MCTS simulations a second with togyz's and mangala's
// shipped models, the measurement that `go run ./cmd/kumalak-wasm -speed`
// makes natively (BENCHMARKS.md compares them). It ignores b.N: one
// measurement.
func BenchmarkWebWasm(b *testing.B) {
	path := webtest.Chromium(b)
	site := b.TempDir()
	if code, out, errs := kumalak(b, "web", "--out", site, "--bundle=false"); code != 0 {
		b.Fatalf("web: exit %d: %s%s", code, out, errs)
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer ts.Close()
	p := openSite(b, path, ts.URL+"/")
	load, err := chromedp.Run(p.Ctx, chromedp.Evaluate[float64](`performance.now()`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(load, "load_ms")
	for _, game := range []string{"togyz", "mangala"} {
		var sp struct {
			Speed struct {
				RowsPerSec float64 `json:"rows_per_sec"`
				SimsPerSec float64 `json:"sims_per_sec"`
			} `json:"speed"`
			Error string `json:"error"`
		}
		js, err := chromedp.Run(p.Ctx, chromedp.Evaluate[string](fmt.Sprintf(`siteSpeed(%q, 8, 8000, 500).then((r) => JSON.stringify(r))`, game), chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		if err := json.Unmarshal([]byte(js), &sp); err != nil || sp.Error != "" {
			b.Fatalf("speed %s: %v", js, err)
		}
		b.Logf("wasm in Chromium: %s", js)
		b.ReportMetric(sp.Speed.RowsPerSec, game+"_rows/s")
		b.ReportMetric(sp.Speed.SimsPerSec, game+"_sims/s")
	}
}
