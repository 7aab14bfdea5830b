package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"kumalak/bot/web"
	"kumalak/bot/web/site"
	"kumalak/bot/web/webtest"
	"kumalak/env"
)

// TestWebSite builds the static site of kumalak web once, serves it as
// plain files and, in headless Chromium with no kumalak server, plays a
// whole game of each game against the wasm bot by clicking the pits
// (togyz and mangala-kale as white, mangala and kalah as black: every
// game serve plays): every move is
// legal, the result is shown and read back from the copied record, and
// the bot's moves are the native bot's at the same simulations (the same
// requests answered by web.Mux in a process on net's portable kernel).
// Then it opens the site from file:// and plays, hints and analyses there.
func TestWebSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm and plays four games in a browser")
	}
	path := webtest.Chromium(t)
	site := t.TempDir()
	if code, out, errs := kumalak(t, "web", "--out", site, "--sims", "8"); code != 0 {
		t.Fatalf("web: exit %d: %s%s", code, out, errs)
	}
	for _, f := range []string{"index.html", "app.js", "static.js", "worker.js", "site.js", "kumalak.wasm", "wasm_exec.js", "kumalak-bundle.js"} {
		if _, err := os.Stat(filepath.Join(site, f)); err != nil {
			t.Fatalf("the site lacks %s: %v", f, err)
		}
	}
	conf := readSiteJS(t, site)

	t.Run("http", func(t *testing.T) {
		ts := httptest.NewServer(http.FileServer(http.Dir(site)))
		defer ts.Close()
		p := openSite(t, path, ts.URL+"/")
		p.Run("no animation", chromedp.Click(chromedp.CSS("#animate")))
		var reqs []web.MoveRequest
		var played []int
		for _, c := range []struct{ game, human string }{{"togyz", "w"}, {"mangala", "b"}, {"mangala-kale", "w"}, {"kalah", "b"}} {
			rec := p.playGame(c.game, c.human)
			r, m := botMoves(rec, c.human)
			reqs, played = append(reqs, r...), append(played, m...)
		}
		p.CheckConsole()
		got := nativeMoves(t, conf, reqs)
		for i := range played {
			if got[i] != played[i] {
				t.Fatalf("%s: the bot's move at ply %d: wasm %d, native %d", reqs[i].Game, len(reqs[i].Moves)+1, played[i], got[i])
			}
		}
		t.Logf("the native bot made the wasm bot's %d moves", len(played))
	})

	t.Run("file", func(t *testing.T) {
		p := openSite(t, path, "file://"+filepath.ToSlash(site)+"/index.html")
		p.Run("no animation", chromedp.Click(chromedp.CSS("#animate")))
		p.Run("pick mangala", p.selectGame("mangala", "w"))
		p.Run("hint", chromedp.Click(chromedp.CSS("#hint")), p.Wait(`document.getElementById("hinttext").textContent.startsWith("Hint: ")`))
		p.Run("play pit 1", chromedp.Click(chromedp.CSS("#pit-w-1")),
			p.Wait(`document.getElementById("botmove").textContent.startsWith("Bot played ") && document.querySelector("#board .pit.legal") !== null`))
		p.Run("analyse", chromedp.Click(chromedp.CSS("#analyse")), p.Wait(`document.getElementById("anatext").textContent.includes("best")`))
		p.Run("back", chromedp.Click(chromedp.CSS("#analyse")), p.Wait(`document.getElementById("analysis").hidden`))
		if got := p.Text(`document.getElementById("agent").textContent`); !strings.Contains(got, "model:sims=8") {
			t.Errorf("the bot is shown as %q", got)
		}
		// A level (docs/PLAYING.md, Levels) plays in the wasm bot too.
		p.Run("level 3, as black", chromedp.Evaluate[chromedp.Void](`(() => {
			const l = document.getElementById("level");
			l.value = "3";
			l.dispatchEvent(new Event("change"));
		})()`), p.selectGame("mangala", "b"),
			p.Wait(`document.getElementById("botmove").textContent.startsWith("Bot played ") && document.querySelector("#board .pit.legal") !== null`))
		if got := p.Text(`document.getElementById("agent").textContent`); !strings.Contains(got, "level 3 (rated") {
			t.Errorf("at level 3 the bot is shown as %q", got)
		}
		p.CheckConsole()
	})
}

// readSiteJS reads the manifest of the site's site.js.
func readSiteJS(t *testing.T, dir string) site.Manifest {
	t.Helper()
	conf, err := site.ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	return conf
}

// sitePage drives the site's page in headless Chromium.
type sitePage struct{ *webtest.Page }

// openSite starts the browser on url and waits for the bot to be built
// and the board drawn.
func openSite(t testing.TB, path, url string) *sitePage {
	p := &sitePage{webtest.Open(t, webtest.Config{Browser: path, Width: 1200, Height: 900, Limit: 3 * time.Minute,
		WaitTimeout: 60 * time.Second, WaitInterval: 5 * time.Millisecond})}
	began := time.Now()
	defer func() { t.Logf("%s: the bot ready in %v", url, time.Since(began).Round(time.Millisecond)) }()
	p.Run("load "+url, chromedp.Navigate(url), p.Wait(fmt.Sprintf(`document.querySelector("#board .pit") !== null && document.getElementById("game").options.length === %d`, len(env.Games()))))
	return p
}

// selectGame starts a new game of game, the person playing side human.
func (p *sitePage) selectGame(game, human string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		document.getElementById("side").value = %q;
		const g = document.getElementById("game");
		g.value = %q;
		g.dispatchEvent(new Event("change"));
	})()`, human, game))
}

// playGame plays a whole game of game as human against the bot, clicking
// a legal pit at each turn, and returns the record the page copies.
func (p *sitePage) playGame(game, human string) *env.GameRecord {
	t := p.T
	t.Helper()
	began := time.Now()
	spec, err := env.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	p.Run("new "+game, p.selectGame(game, human), p.Wait(fmt.Sprintf(`document.querySelectorAll("#board .pit").length === %d &&
		!document.getElementById("turn").textContent.startsWith("Game over") && document.getElementById("record").childElementCount <= %d`,
		2*spec.Pits, map[string]int{"w": 0, "b": 1000}[human])))
	// The driver clicks a legal pit whenever it is the person's turn,
	// until the game is over; it runs in the page, a round trip a game.
	const driver = `(async () => {
		const $ = (id) => document.getElementById(id);
		const count = () => document.querySelectorAll("#record .mv").length;
		const until = async (what, f) => {
			for (const end = Date.now() + 60000; Date.now() < end; await new Promise((ok) => setTimeout(ok, 2))) {
				const v = f();
				if (v) return v;
			}
			throw new Error("waited a minute for " + what + "; the page says: " + $("turn").textContent + " / " + $("message").textContent);
		};
		for (let n = 0; n < 2000; n++) {
			const legal = await until("the person's turn", () => $("turn").textContent.startsWith("Game over") ? "over" :
				(document.querySelectorAll("#board .pit.legal").length ? document.querySelectorAll("#board .pit.legal") : null));
			if (legal === "over") return n;
			const before = count();
			legal[before % legal.length].dispatchEvent(new MouseEvent("click", { bubbles: true }));
			await until("the move played", () => count() > before);
		}
		throw new Error("no end after 2000 moves");
	})()`
	n, err := chromedp.Run(p.Ctx, chromedp.Evaluate[int](driver, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	turn := p.Text(`document.getElementById("turn").textContent`)
	p.Run(game+": copy the record", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`), chromedp.Click(chromedp.CSS("#copy")), p.Wait(`document.getElementById("recordin").value.startsWith("[Game")`))
	text := p.Text(`document.getElementById("recordin").value`)
	recs, err := env.ReadRecords(strings.NewReader(text), nil)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%s: the copied record %q: %v", game, text, err)
	}
	rec := recs[0]
	final, err := rec.Final()
	if err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	if rec.Spec.Name != game || final.Result() == env.Ongoing || rec.Result != final.Result() {
		t.Fatalf("%s: the record %q ends %v, its game %v", game, text, final.Result(), rec.Result)
	}
	if !strings.HasPrefix(turn, "Game over, "+final.Result().String()+": ") {
		t.Errorf("%s: the page shows %q at the end of a game of result %s", game, turn, final.Result())
	}
	t.Logf("%s: %d moves (%d clicked) in %v, %s", game, len(rec.Moves), n, time.Since(began).Round(time.Millisecond), turn)
	return rec
}

// botMoves returns the requests the page made for the bot's moves of
// rec, the person playing human, in order, and the moves answered.
func botMoves(rec *env.GameRecord, human string) ([]web.MoveRequest, []int) {
	var reqs []web.MoveRequest
	var played []int
	st := rec.StartState()
	pits := env.Pits(rec.Moves)
	for i, a := range rec.Moves {
		if st.ToMove().String() != human {
			reqs = append(reqs, web.MoveRequest{Game: rec.Spec.Name, Moves: pits[:i]})
			played = append(played, a.Pit())
		}
		st.Apply(a)
	}
	return reqs, played
}

// nativeRefEnv names the file of TestWebNativeReference's requests.
const nativeRefEnv = "KUMALAK_WEB_REFERENCE"

// nativeMoves answers the requests with the native bot of the site's
// games, in a child process on net's portable kernel, whose float32
// arithmetic is the wasm's.
func nativeMoves(t *testing.T, conf site.Manifest, reqs []web.MoveRequest) []int {
	t.Helper()
	in := filepath.Join(t.TempDir(), "requests.json")
	b, err := json.Marshal(struct {
		Games    []site.Game
		Requests []web.MoveRequest
	}{conf.Games, reqs})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWebNativeReference$", "-test.count=1")
	cmd.Env = append(os.Environ(), nativeRefEnv+"="+in, "KUMALAK_KERNEL=portable")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the native reference: %v\n%s", err, out)
	}
	_, js, _ := strings.Cut(string(out), "moves: ")
	js, _, _ = strings.Cut(js, "\n")
	var moves []int
	if err := json.Unmarshal([]byte(js), &moves); err != nil || len(moves) != len(reqs) {
		t.Fatalf("the native reference said %q: %v", out, err)
	}
	return moves
}

// TestWebNativeReference, run by nativeMoves, answers its requests with a
// web.Mux of the site's games, as kumalak-wasm builds it, and prints the
// moves; otherwise it skips.
func TestWebNativeReference(t *testing.T) {
	in := os.Getenv(nativeRefEnv)
	if in == "" {
		t.Skip("run by TestWebSite")
	}
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var job struct {
		Games    []site.Game
		Requests []web.MoveRequest
	}
	if err := json.Unmarshal(b, &job); err != nil {
		t.Fatal(err)
	}
	var servers []*web.Server
	for _, g := range job.Games {
		cfg := web.DefaultConfig()
		cfg.Agent, cfg.Games, cfg.Card, cfg.Seed = g.Agent, []string{g.Game}, g.Card, 1
		s, err := web.NewServer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		servers = append(servers, s)
	}
	mux, err := web.NewMux(servers...)
	if err != nil {
		t.Fatal(err)
	}
	defer mux.Close()
	moves := []int{}
	for _, req := range job.Requests {
		body, _ := json.Marshal(req)
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/move", strings.NewReader(string(body))))
		var resp web.MoveResponse
		raw, _ := io.ReadAll(w.Body)
		if w.Code != http.StatusOK || json.Unmarshal(raw, &resp) != nil {
			t.Fatalf("%s: %d %s", body, w.Code, raw)
		}
		moves = append(moves, resp.Move)
	}
	b, _ = json.Marshal(moves)
	fmt.Printf("moves: %s\n", b)
}

// TestWebBadInput: web refuses bad flags with exit status 2 and a line
// naming the flag, before building anything.
func TestWebBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"web"}, "web: --out is required"},
		{[]string{"web", "--out", dir, "--model", "togyz"}, `web: --model "togyz": want GAME=FILE`},
		{[]string{"web", "--out", dir, "--model", "chess=a.kmodel"}, `web: --model chess=a.kmodel: unknown game "chess"`},
		{[]string{"web", "--out", dir, "--model", "togyz=" + filepath.Join(dir, "none.kmodel")}, "no such file"},
		{[]string{"web", "--out", dir, "--games", "mangala", "--model", "togyz=x.kmodel"}, "web: --model togyz=...: togyz is not one of --games"},
		{[]string{"web", "--out", dir, "--games", "togyz,togyz"}, "web: --games: togyz given twice"},
		{[]string{"web", "--out", dir, "--sims", "-1"}, "web: --sims -1 or --time 0s out of range"},
		{[]string{"web", "--out", dir, "--src", dir}, "not the kumalak source tree"},
		{[]string{"web", "--out", dir, "--go", filepath.Join(dir, "nogo")}, "the site needs the Go toolchain"},
	}
	for _, c := range cases {
		code, _, errs := kumalak(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}
