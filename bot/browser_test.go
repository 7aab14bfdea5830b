package bot

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
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

// page drives the web page of a test server in headless Chromium.
type page struct {
	t   *testing.T
	ctx context.Context

	mu       sync.Mutex
	problems []string // console errors and exceptions
}

// openPage starts the browser on ts; Close checks the console.
func openPage(t *testing.T, ts *httptest.Server, width, height int64) *page {
	path := chromium(t)
	parent, cancelAll := context.WithTimeout(context.Background(), 3*time.Minute)
	actx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()))
	ctx, cancel := chromedp.NewContext(actx)
	p := &page{t: t, ctx: ctx}
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
		cancelAll()
	})
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
	p.run("viewport", chromedp.EmulateViewport(width, height))
	p.run("load the page", chromedp.Navigate(ts.URL), chromedp.WaitVisible(chromedp.CSS("#board .pit")))
	return p
}

func (p *page) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.t.Fatalf("%s: %v (browser console: %q)", what, err, p.problems)
	}
}

func (p *page) text(js string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return s
}

func (p *page) wait(js string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(60*time.Second))
}

// checkConsole fails the test on console errors.
func (p *page) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.problems {
		p.t.Errorf("browser console: %s", m)
	}
}

// TestBrowserPlaysTheBot loads the page in headless Chromium, plays a
// togyz move as white, sees the bot answer in the move list's notation,
// then plays mangala as black (the bot opens), and takes a move back.
func TestBrowserPlaysTheBot(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", nil)
	p := openPage(t, ts, 1200, 900)
	p.run("togyz", p.wait(`document.querySelector("#pit-w-7.legal") !== null`))
	if n := p.text(`String(document.querySelectorAll("#board .pit").length)`); n != "18" {
		t.Fatalf("togyz board with %s pits, want 18", n)
	}
	p.run("play pit 7", chromedp.Click(chromedp.CSS("#pit-w-7")),
		p.wait(`document.querySelectorAll("#record .mv").length >= 2 && document.getElementById("botmove").textContent !== ""`))
	if got := p.text(`document.getElementById("botmove").textContent`); !strings.HasPrefix(got, "Bot played ") || !strings.Contains(got, "its chance") {
		t.Errorf("bot move text %q", got)
	}
	// 7 with 9 stones ends on black's 6, which then holds 10: an even
	// count, captured; the list reads "1. 76+10 ..".
	if got := p.text(`document.getElementById("record").textContent`); !strings.HasPrefix(got, "76+10 ") {
		t.Errorf("record %q, want it to start 76+10", got)
	}
	if got := p.text(`document.querySelector("#mv-1").className + "|" + document.getElementById("announce").textContent`); !strings.Contains(got, "cap") || !strings.Contains(got, "The bot played") {
		t.Errorf("first move's marks and the announcement: %q", got)
	}

	p.run("mangala as black", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById("side").value = "b";
		const g = document.getElementById("game");
		g.value = "mangala";
		g.dispatchEvent(new Event("change"));
	})()`), p.wait(`document.querySelectorAll("#board .pit").length === 12 && document.querySelector("#board .pit.legal") !== null`))
	before := p.text(`String(document.querySelectorAll("#record .mv").length)`)
	if !strings.HasPrefix(p.text(`document.getElementById("record").textContent`), "white ") {
		t.Errorf("playing black, the bot did not open: record %q", p.text(`document.getElementById("record").textContent`))
	}
	pit := p.text(`document.querySelector("#board .pit.legal").id`)
	p.run("play "+pit, chromedp.Click(chromedp.CSS("#"+pit)),
		p.wait(`document.querySelectorAll("#record .mv").length > `+before+` && document.querySelector("#board .pit.legal") !== null`))
	p.run("undo", chromedp.Click(chromedp.CSS("#undo")),
		p.wait(`document.querySelectorAll("#record .mv").length === `+before))
	if got := p.text(`document.getElementById("turn").textContent`); got != "Your move (black)" {
		t.Errorf("after undo: %q", got)
	}
	p.checkConsole()
}

// TestBrowserPhoneRecordAnalysis, on a phone's 390 px: the page fits the
// width, a move is played, a pasted record is loaded, its analysis is
// stepped through with the value bar and best move at each step, the
// record is copied back, and a set-up position shows a tuzdyk in its
// owner's colour.
func TestBrowserPhoneRecordAnalysis(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", nil)
	p := openPage(t, ts, 390, 844)
	p.run("togyz", p.wait(`document.querySelector("#pit-w-7.legal") !== null`))
	if w := p.text(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("page %s px wide on a 390 px screen", w)
	}
	if w := p.text(`String(Math.round(document.getElementById("board").getBoundingClientRect().width))`); w < "300" || len(w) != 3 {
		t.Errorf("board %s px wide, want most of 390", w)
	}
	// Pit numbers and counts drawn at 11 px or more on the screen.
	for _, sel := range []string{"#board .label", "#board .count"} {
		px := p.text(`(() => {
			const b = document.getElementById("board"), e = document.querySelector("` + sel + `");
			return String(parseFloat(getComputedStyle(e).fontSize) * b.getBoundingClientRect().width / b.viewBox.baseVal.width);
		})()`)
		if f, err := strconv.ParseFloat(px, 64); err != nil || f < 11 {
			t.Errorf("%s drawn at %s px on a 390 px screen, want 11 or more", sel, px)
		}
	}
	p.run("play pit 3", chromedp.Click(chromedp.CSS("#pit-w-3")),
		p.wait(`document.querySelectorAll("#record .mv").length >= 2`))

	const record = `[Game "togyz"]
1. 76 98 2. 33 12 3. 45 *`
	p.run("paste a record", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`),
		chromedp.SetValue(chromedp.CSS("#recordin"), record), chromedp.Click(chromedp.CSS("#load")),
		p.wait(`document.querySelectorAll("#record .mv").length === 5 && document.getElementById("announce").textContent === "Loaded 5 moves."`))
	if got := p.text(`document.getElementById("record").textContent`); !strings.HasPrefix(got, "76+10 98") {
		t.Errorf("loaded record reads %q", got)
	}
	if got := p.text(`document.getElementById("turn").textContent`); got != "Your move (black)" {
		t.Errorf("after loading: %q, want black (the side to move) for the person", got)
	}

	p.run("analyse", chromedp.Click(chromedp.CSS("#analyse")),
		p.wait(`document.getElementById("anatext").textContent.includes("best")`))
	if got := p.text(`document.getElementById("turn").textContent`); got != "Analysis: move 5 of 5, black to move" {
		t.Errorf("analysis turn line %q", got)
	}
	p.run("to the start", chromedp.Click(chromedp.CSS("#first")),
		p.wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 0 ") && document.getElementById("anatext").textContent.includes("played: 76")`))
	start := p.text(`document.getElementById("evalfill").style.width + " " + document.getElementById("evallabel").textContent`)
	if !strings.HasSuffix(start, "white's chance") || start == "50% white's chance" {
		t.Errorf("value bar at the start: %q", start)
	}
	p.run("one step on", chromedp.Click(chromedp.CSS("#next")),
		p.wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 1 ") && document.getElementById("anatext").textContent.includes("black to move; best")`))
	if got := p.text(`document.querySelector("#record .now").id`); got != "mv-1" {
		t.Errorf("the move shown is %q in the list, want mv-1", got)
	}
	// One notation: the best move and its line both as togyz tokens
	// (pit and landing pit, "98"), never bare pit numbers.
	ana := p.text(`document.getElementById("anatext").textContent`)
	if m := regexp.MustCompile(`best (\S+) \(line ([^)]*)\)`).FindStringSubmatch(ana); m == nil {
		t.Errorf("analysis text %q: no best move and line", ana)
	} else {
		for _, tok := range append([]string{m[1]}, strings.Fields(m[2])...) {
			if !regexp.MustCompile(`^[1-9][1-9]x?$`).MatchString(tok) {
				t.Errorf("analysis text %q: %q is not in togyz notation", ana, tok)
			}
		}
	}
	p.run("click a move", chromedp.Click(chromedp.CSS("#mv-3")),
		p.wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 3 ") && document.getElementById("anatext").textContent.includes("best")`))
	if n := p.text(`String(document.querySelectorAll("#board .pit.legal").length)`); n != "0" {
		t.Errorf("%s pits can be played in analysis", n)
	}
	p.run("back to play", chromedp.Click(chromedp.CSS("#analyse")), p.wait(`document.getElementById("analysis").hidden`))

	p.run("copy", chromedp.Click(chromedp.CSS("#copy")), p.wait(`document.getElementById("recordin").value.includes("1. 76 98 2. 33 12 3. 45")`))

	p.run("set up a position", chromedp.Evaluate[chromedp.Void](`document.getElementById("recordin").value = ""`),
		chromedp.SetValue(chromedp.CSS("#posin"), "9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,15 3 0 3 - b"),
		chromedp.Click(chromedp.CSS("#load")), p.wait(`document.querySelector("#pit-b-3.special-w") !== null`))
	if got := p.text(`document.querySelector("#pit-b-3 .mark").textContent + " " + document.querySelector("#pit-b-3 title").textContent`); got != "Tw black pit 3: 0 stones — white's tuzdyk" {
		t.Errorf("tuzdyk drawn as %q", got)
	}
	// The footer names the colours the board draws: white's gold
	// (#f5d76e), black's dark red (#8e1f12).
	if got := p.text(`getComputedStyle(document.querySelector("#pit-b-3 ellipse")).fill + " | " + document.getElementById("specials").textContent`); got !=
		"rgb(245, 215, 110) | A tuzdyk (T) or castle (K) is drawn in its owner's colour: gold for white's, dark red for black's." {
		t.Errorf("white's tuzdyk and the footer: %q", got)
	}

	// mangala: 4 from the start ends in the store; the move is
	// announced, and white moves again.
	p.run("mangala as white", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById("posin").value = "";
		document.getElementById("side").value = "w";
		const g = document.getElementById("game");
		g.value = "mangala";
		g.dispatchEvent(new Event("change"));
	})()`), p.wait(`document.querySelectorAll("#board .pit").length === 12 && document.querySelector("#pit-w-4.legal") !== null`))
	p.run("play 4", chromedp.Click(chromedp.CSS("#pit-w-4")), p.wait(`document.querySelector("#board .pit.legal") !== null && document.getElementById("announce").textContent !== ""`))
	if got := p.text(`document.getElementById("announce").textContent + " | " + document.getElementById("turn").textContent + " | " + document.getElementById("record").textContent`); got != "You played 4, 1 sown into the store, white moves again. | Your move (white) | white 4↻" {
		t.Errorf("after mangala 4: %q", got)
	}
	p.checkConsole()
}

// TestBrowserBotChain, on a server of classic mangala alone: the page
// names only that game (no tuzdyk, no castle), and announces every move of the bot's extra-turn chain (black's 6 and
// 5 both end in its store).
func TestBrowserBotChain(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", func(c *ServerConfig) { c.Games = []string{"mangala"} })
	p := openPage(t, ts, 1200, 900)
	if got := p.text(`[...document.getElementById("game").options].map((o) => o.value).join(",") + " | " + document.querySelector("footer").textContent.replace(/\s+/g, " ").trim()`); got !=
		"mangala | Click one of your pits to sow it. Your row is at the bottom; the pits are numbered from your left. Games: Mangala (classic)." {
		t.Errorf("games and footer: %q", got)
	}
	p.run("open the set-up box", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`))
	p.run("set up", chromedp.Evaluate[chromedp.Void](`document.getElementById("recordin").value = ""`),
		chromedp.SetValue(chromedp.CSS("#posin"), "2,1,0,0,0,0/0,0,0,0,3,1 20 21 - - w"), chromedp.Click(chromedp.CSS("#load")),
		p.wait(`document.getElementById("announce").textContent === "Loaded 0 moves." && document.querySelector("#pit-b-5").dataset.count === "3" && document.querySelector("#pit-w-1.legal") !== null`))
	p.run("play 1", chromedp.Click(chromedp.CSS("#pit-w-1")),
		p.wait(`!document.getElementById("turn").textContent.startsWith("The bot") && document.querySelectorAll("#record .mv.bot").length > 0 && document.getElementById("announce").textContent.startsWith("The bot")`))
	bot := strings.Fields(p.text(`[...document.querySelectorAll("#record .mv.bot")].map((e) => e.textContent.replace(/[+↻].*/, "")).join(" ")`))
	if len(bot) < 2 {
		t.Fatalf("the bot played %v, want a chain of extra turns", bot)
	}
	got := p.text(`document.getElementById("announce").textContent`)
	for i, tok := range bot {
		if i > 0 && !strings.Contains(got, "; then "+tok) || i == 0 && !strings.HasPrefix(got, "The bot played "+tok) {
			t.Errorf("announcement %q does not name move %d (%s) of the chain %v", got, i+1, tok, bot)
		}
	}
	if n := strings.Count(got, "black moves again"); n != len(bot)-1 && n != len(bot) {
		t.Errorf("announcement %q: %d extra turns for a chain of %d", got, n, len(bot))
	}
	if b := p.text(`document.getElementById("botmove").textContent`); !strings.HasPrefix(b, "Bot played "+strings.Join(bot, ", then ")+" — ") {
		t.Errorf("bot move line %q for the chain %v", b, bot)
	}
	p.checkConsole()
}
