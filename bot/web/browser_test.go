package web

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"kumalak/bot/web/webtest"
)

// page is the web page of a test server in headless Chromium.
type page struct{ *webtest.Page }

// openPage starts the browser on ts; CheckConsole checks the console.
func openPage(t *testing.T, ts *httptest.Server, width, height int64) *page {
	p := &page{webtest.Open(t, webtest.Config{Browser: webtest.Chromium(t), Width: width, Height: height, Limit: 3 * time.Minute, WaitTimeout: time.Minute})}
	p.Run("load the page", chromedp.Navigate(ts.URL), chromedp.WaitVisible(chromedp.CSS("#board .pit")))
	return p
}

// TestBrowserPlaysTheBot loads the page in headless Chromium, plays a
// togyz move as white, sees the bot answer in the move list's notation,
// then plays mangala as black (the bot opens), and takes a move back.
func TestBrowserPlaysTheBot(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", nil)
	p := openPage(t, ts, 1200, 900)
	p.Run("togyz", p.Wait(`document.querySelector("#pit-w-7.legal") !== null`))
	if n := p.Text(`String(document.querySelectorAll("#board .pit").length)`); n != "18" {
		t.Fatalf("togyz board with %s pits, want 18", n)
	}
	p.Run("play pit 7", chromedp.Click(chromedp.CSS("#pit-w-7")),
		p.Wait(`document.querySelectorAll("#record .mv").length >= 2 && document.getElementById("botmove").textContent !== ""`))
	// Who stands better in plain words, the engine's numbers in the details.
	if got := p.Text(`document.getElementById("botmove").textContent`); !strings.HasPrefix(got, "Bot played ") || !regexp.MustCompile(` — (The game is even \(white \d+%\)|(White|Black) is (slightly better|better|winning), \d+%)$`).MatchString(got) {
		t.Errorf("bot move text %q", got)
	}
	if got := p.Text(`document.getElementById("jargon").textContent + " | " + document.getElementById("agent").textContent`); !strings.Contains(got, "the chance of the side to move ") || !strings.Contains(got, "depth 2") || !strings.Contains(got, "bot: ab:depth=2") {
		t.Errorf("details %q", got)
	}
	// 7 with 9 stones ends on black's 6, which then holds 10: an even
	// count, captured; the list reads "1. 76+10 ..".
	if got := p.Text(`document.getElementById("record").textContent`); !strings.HasPrefix(got, "76+10 ") {
		t.Errorf("record %q, want it to start 76+10", got)
	}
	if got := p.Text(`document.querySelector("#mv-1").className + "|" + document.getElementById("announce").textContent`); !strings.Contains(got, "cap") || !strings.Contains(got, "The bot played") {
		t.Errorf("first move's marks and the announcement: %q", got)
	}

	p.Run("mangala as black", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById("side").value = "b";
		const g = document.getElementById("game");
		g.value = "mangala";
		g.dispatchEvent(new Event("change"));
	})()`), p.Wait(`document.querySelectorAll("#board .pit").length === 12 && document.querySelector("#board .pit.legal") !== null`))
	before := p.Text(`String(document.querySelectorAll("#record .mv").length)`)
	if !strings.HasPrefix(p.Text(`document.getElementById("record").textContent`), "white ") {
		t.Errorf("playing black, the bot did not open: record %q", p.Text(`document.getElementById("record").textContent`))
	}
	pit := p.Text(`document.querySelector("#board .pit.legal").id`)
	p.Run("play "+pit, chromedp.Click(chromedp.CSS("#"+pit)),
		p.Wait(`document.querySelectorAll("#record .mv").length > `+before+` && document.querySelector("#board .pit.legal") !== null`))
	p.Run("undo", chromedp.Click(chromedp.CSS("#undo")),
		p.Wait(`document.querySelectorAll("#record .mv").length === `+before))
	if got := p.Text(`document.getElementById("turn").textContent`); got != "Your move (black)" {
		t.Errorf("after undo: %q", got)
	}
	p.CheckConsole()
}

// TestBrowserPhoneRecordAnalysis, on a phone's 390 px: the page fits the
// width, a move is played, a pasted record is loaded, its analysis is
// stepped through with the value bar and best move at each step, the
// record is copied back, and a set-up position shows a tuzdyk in its
// owner's colour.
func TestBrowserPhoneRecordAnalysis(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", nil)
	p := openPage(t, ts, 390, 844)
	p.Run("togyz", p.Wait(`document.querySelector("#pit-w-7.legal") !== null`))
	if w := p.Text(`String(document.documentElement.scrollWidth)`); w != "390" {
		t.Errorf("page %s px wide on a 390 px screen", w)
	}
	if w := p.Text(`String(Math.round(document.getElementById("board").getBoundingClientRect().width))`); w < "300" || len(w) != 3 {
		t.Errorf("board %s px wide, want most of 390", w)
	}
	// Pit numbers and counts drawn at 11 px or more on the screen.
	for _, sel := range []string{"#board .label", "#board .count"} {
		px := p.Text(`(() => {
			const b = document.getElementById("board"), e = document.querySelector("` + sel + `");
			return String(parseFloat(getComputedStyle(e).fontSize) * b.getBoundingClientRect().width / b.viewBox.baseVal.width);
		})()`)
		if f, err := strconv.ParseFloat(px, 64); err != nil || f < 11 {
			t.Errorf("%s drawn at %s px on a 390 px screen, want 11 or more", sel, px)
		}
	}
	p.Run("play pit 3", chromedp.Click(chromedp.CSS("#pit-w-3")),
		p.Wait(`document.querySelectorAll("#record .mv").length >= 2`))

	const record = `[Game "togyz"]
1. 76 98 2. 33 12 3. 45 *`
	p.Run("paste a record", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`),
		chromedp.SetValue(chromedp.CSS("#recordin"), record), chromedp.Click(chromedp.CSS("#load")),
		p.Wait(`document.querySelectorAll("#record .mv").length === 5 && document.getElementById("announce").textContent === "Loaded 5 moves."`))
	if got := p.Text(`document.getElementById("record").textContent`); !strings.HasPrefix(got, "76+10 98") {
		t.Errorf("loaded record reads %q", got)
	}
	if got := p.Text(`document.getElementById("turn").textContent`); got != "Your move (black)" {
		t.Errorf("after loading: %q, want black (the side to move) for the person", got)
	}

	p.Run("analyse", chromedp.Click(chromedp.CSS("#analyse")),
		p.Wait(`document.getElementById("anatext").textContent.includes("best")`))
	if got := p.Text(`document.getElementById("turn").textContent`); got != "Analysis: move 5 of 5, black to move" {
		t.Errorf("analysis turn line %q", got)
	}
	p.Run("to the start", chromedp.Click(chromedp.CSS("#first")),
		p.Wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 0 ") && document.getElementById("anatext").textContent.includes("played: 76")`))
	start := p.Text(`document.getElementById("evalfill").style.width + " " + document.getElementById("standing").textContent`)
	if strings.HasPrefix(start, "50% ") || !strings.Contains(start, "White") && !strings.Contains(start, "Black") {
		t.Errorf("value bar and standing at the start: %q", start)
	}
	p.Run("one step on", chromedp.Click(chromedp.CSS("#next")),
		p.Wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 1 ") && document.getElementById("anatext").textContent.includes("black to move; best")`))
	if got := p.Text(`document.querySelector("#record .now").id`); got != "mv-1" {
		t.Errorf("the move shown is %q in the list, want mv-1", got)
	}
	// One notation: the best move and its line both as togyz tokens
	// (pit and landing pit, "98"), never bare pit numbers.
	ana := p.Text(`document.getElementById("anatext").textContent`)
	if m := regexp.MustCompile(`best (\S+) \(line ([^)]*)\)`).FindStringSubmatch(ana); m == nil {
		t.Errorf("analysis text %q: no best move and line", ana)
	} else {
		for _, tok := range append([]string{m[1]}, strings.Fields(m[2])...) {
			if !regexp.MustCompile(`^[1-9][1-9]x?$`).MatchString(tok) {
				t.Errorf("analysis text %q: %q is not in togyz notation", ana, tok)
			}
		}
	}
	p.Run("click a move", chromedp.Click(chromedp.CSS("#mv-3")),
		p.Wait(`document.getElementById("turn").textContent.startsWith("Analysis: move 3 ") && document.getElementById("anatext").textContent.includes("best")`))
	if n := p.Text(`String(document.querySelectorAll("#board .pit.legal").length)`); n != "0" {
		t.Errorf("%s pits can be played in analysis", n)
	}
	p.Run("back to play", chromedp.Click(chromedp.CSS("#analyse")), p.Wait(`document.getElementById("analysis").hidden`))

	p.Run("copy", chromedp.Click(chromedp.CSS("#copy")), p.Wait(`document.getElementById("recordin").value.includes("1. 76 98 2. 33 12 3. 45")`))

	p.Run("set up a position", chromedp.Evaluate[chromedp.Void](`document.getElementById("recordin").value = ""`),
		chromedp.SetValue(chromedp.CSS("#posin"), "9,9,9,9,9,9,9,9,9/9,9,0,9,9,9,9,9,15 3 0 3 - b"),
		chromedp.Click(chromedp.CSS("#load")), p.Wait(`document.querySelector("#pit-b-3.special-w") !== null`))
	if got := p.Text(`document.querySelector("#pit-b-3 .mark").textContent + " " + document.querySelector("#pit-b-3 title").textContent`); got != "Tw black's pit 3: 0 stones — white's tuzdyk" {
		t.Errorf("tuzdyk drawn as %q", got)
	}

	// The footer names the colours the board draws: white's gold
	// (#f5d76e), black's dark red (#8e1f12); the rules are togyz's.
	if got := p.Text(`getComputedStyle(document.querySelector("#pit-b-3 ellipse")).fill + " | " + document.getElementById("specials").textContent`); got !=
		"rgb(245, 215, 110) | A tuzdyk (T) is drawn in its owner's colour: gold for white's, dark red for black's." {
		t.Errorf("white's tuzdyk and the footer: %q", got)
	}

	// mangala: 4 from the start ends in the store; the move is
	// announced, and white moves again.
	p.Run("mangala as white", chromedp.Evaluate[chromedp.Void](`(() => {
		document.getElementById("posin").value = "";
		document.getElementById("side").value = "w";
		const g = document.getElementById("game");
		g.value = "mangala";
		g.dispatchEvent(new Event("change"));
	})()`), p.Wait(`document.querySelectorAll("#board .pit").length === 12 && document.querySelector("#pit-w-4.legal") !== null`))
	p.Run("play 4", chromedp.Click(chromedp.CSS("#pit-w-4")), p.Wait(`document.querySelector("#board .pit.legal") !== null && document.getElementById("announce").textContent !== ""`))
	if got := p.Text(`document.getElementById("announce").textContent + " | " + document.getElementById("turn").textContent + " | " + document.getElementById("record").textContent`); got != "You played 4, 1 sown into the store, white moves again. | Your move (white) | white 4↻" {
		t.Errorf("after mangala 4: %q", got)
	}
	p.CheckConsole()
}

// TestBrowserBotChain, on a server of classic mangala alone: the page
// names only that game (no tuzdyk, no castle), and announces every move of the bot's extra-turn chain (black's 6 and
// 5 both end in its store).
func TestBrowserBotChain(t *testing.T) {
	ts := newTestServer(t, "ab:depth=2", func(c *Config) { c.Games = []string{"mangala"} })
	p := openPage(t, ts, 1200, 900)
	if got := p.Text(`[...document.getElementById("game").options].map((o) => o.value + " " + o.textContent).join(",") + " | " + document.querySelector("footer").textContent.replace(/\s+/g, " ").trim()`); got !=
		"mangala Mangala | Click one of your pits to sow it. Your row is at the bottom; the pits are numbered from your left." {
		t.Errorf("games and footer: %q", got)
	}
	p.Run("open the set-up box", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`))
	p.Run("set up", chromedp.Evaluate[chromedp.Void](`document.getElementById("recordin").value = ""`),
		chromedp.SetValue(chromedp.CSS("#posin"), "2,1,0,0,0,0/0,0,0,0,3,1 20 21 - - w"), chromedp.Click(chromedp.CSS("#load")),
		p.Wait(`document.getElementById("announce").textContent === "Loaded 0 moves." && document.querySelector("#pit-b-5").dataset.count === "3" && document.querySelector("#pit-w-1.legal") !== null`))
	p.Run("play 1", chromedp.Click(chromedp.CSS("#pit-w-1")),
		p.Wait(`!document.getElementById("turn").textContent.startsWith("The bot") && document.querySelectorAll("#record .mv.bot").length > 0 && document.getElementById("announce").textContent.startsWith("The bot")`))
	bot := strings.Fields(p.Text(`[...document.querySelectorAll("#record .mv.bot")].map((e) => e.textContent.replace(/[+↻].*/, "")).join(" ")`))
	if len(bot) < 2 {
		t.Fatalf("the bot played %v, want a chain of extra turns", bot)
	}
	got := p.Text(`document.getElementById("announce").textContent`)
	for i, tok := range bot {
		if i > 0 && !strings.Contains(got, "; then "+tok) || i == 0 && !strings.HasPrefix(got, "The bot played "+tok) {
			t.Errorf("announcement %q does not name move %d (%s) of the chain %v", got, i+1, tok, bot)
		}
	}
	if n := strings.Count(got, "black moves again"); n != len(bot)-1 && n != len(bot) {
		t.Errorf("announcement %q: %d extra turns for a chain of %d", got, n, len(bot))
	}
	if b := p.Text(`document.getElementById("botmove").textContent`); !strings.HasPrefix(b, "Bot played "+strings.Join(bot, ", then ")+" — ") {
		t.Errorf("bot move line %q for the chain %v", b, bot)
	}
	p.CheckConsole()
}

// browserLanguages makes the page's navigator.languages langs (a JS array)
// in every document loaded after it.
func browserLanguages(langs string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(navigator, "languages", {get: () => ` + langs + `})`,
		})
		return chromedp.Void{}, err
	}
}

// TestBrowserLanguages loads the page in each language: first as a
// browser set to German, Kyrgyz, then Kazakh (the page speaks Russian,
// which Kyrgyz speakers read, as play does from the locale), then each
// language chosen on the page's selector, and the page loaded again (the
// choice is kept). In each, the fixed texts are the catalog's, the game,
// its store and its rules are named in that language, no message is left
// as its key, and no English text is left where the language has its own.
func TestBrowserLanguages(t *testing.T) {
	ts := newTestServer(t, "ab:depth=1", nil)
	p := &page{webtest.Open(t, webtest.Config{Browser: webtest.Chromium(t), Width: 1200, Height: 900, Limit: 3 * time.Minute, WaitTimeout: time.Minute})}
	p.Run("a browser in German, Kyrgyz and Kazakh", browserLanguages(`["de-DE", "ky-KG", "kk"]`),
		chromedp.Navigate(ts.URL), chromedp.WaitVisible(chromedp.CSS("#board .pit")))
	p.checkLanguage("ru")
	for _, code := range []string{"kk", "ru", "tr", "en"} {
		p.Run("choose "+code, chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("lang");
			s.value = "`+code+`";
			s.dispatchEvent(new Event("change"));
		})()`))
		p.checkLanguage(code)
		if code == "ru" {
			p.Run("play pit 7", chromedp.Click(chromedp.CSS("#pit-w-7")),
				p.Wait(`document.getElementById("botmove").textContent !== "" && document.querySelector("#board .pit.legal") !== null`))
			// 7 takes black's 6 (10 stones, ten: "камней"); the bot answers.
			if got := p.Text(`document.querySelector("#mv-1").title + " | " + document.getElementById("announce").textContent + " | " + document.getElementById("botmove").textContent`); !regexp.MustCompile(`^взято 10 камней \| Бот сыграл \d+.* \| Бот сыграл \d+ — (Игра равна|У (белых|чёрных)|(Белые|Чёрные) выигрывают)`).MatchString(got) {
				t.Errorf("ru: after a move: %q", got)
			}
		}
		p.Run("load again", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#board .pit")))
		p.checkLanguage(code)
	}
	p.CheckConsole()
}

// checkLanguage fails the test where the page does not speak code.
func (p *page) checkLanguage(code string) {
	p.T.Helper()
	p.Run(code, p.Wait(`document.documentElement.lang === "`+code+`" && document.getElementById("turn").textContent !== "" && document.querySelector("#rules h3") !== null`))
	got := p.Text(`(() => {
		const code = "` + code + `", cat = KUMALAK_WORDS.catalogs[code], en = KUMALAK_WORDS.catalogs.en, bad = [];
		if (document.getElementById("lang").value !== code) bad.push("selector " + document.getElementById("lang").value);
		for (const e of document.querySelectorAll("[data-t]")) if (e.textContent !== cat[e.dataset.t]) bad.push(e.dataset.t + ": " + e.textContent);
		for (const e of document.querySelectorAll("[data-t-label]")) if (e.getAttribute("aria-label") !== cat[e.dataset.tLabel]) bad.push(e.dataset.tLabel);
		for (const e of document.querySelectorAll("[data-t-title]")) if (e.title !== cat[e.dataset.tTitle]) bad.push(e.dataset.tTitle);
		if (document.title !== cat["page.title"]) bad.push("title " + document.title);
		const turn = document.getElementById("turn").textContent;
		if (![cat["turn.w"], cat["turn.b"], cat["turn.bot"]].includes(turn)) bad.push("turn " + turn);
		const game = S.info.games.find((g) => g.name === "togyz").names[code];
		if (document.querySelector("#game option[value=togyz]").textContent !== game) bad.push("game " + document.querySelector("#game option[value=togyz]").textContent);
		if (document.querySelector("#rules h3").textContent !== game) bad.push("rules " + document.querySelector("#rules h3").textContent);
		if (![...document.querySelectorAll("#board .storelabel")].every((e) => e.textContent.startsWith(cat["word.kazan"]) || e.textContent.includes(" " + cat["word.kazan"]))) bad.push("store label");
		const pit = document.querySelector("#pit-b-1");
		if (pit.querySelector("title").textContent !== t("board.pit.b", 1, Number(pit.dataset.count))) bad.push("pit title " + pit.querySelector("title").textContent);
		const texts = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
		while (walk.nextNode()) if (walk.currentNode.textContent.trim()) texts.push(walk.currentNode.textContent.trim());
		for (const e of document.querySelectorAll("[aria-label], [title]")) texts.push(e.getAttribute("aria-label") || e.title);
		for (const s of texts) {
			if (/\[[a-z]+\.[a-z.-]+\]/.test(s)) bad.push("a key: " + s);
			if (code !== "en" && Object.keys(en).some((k) => k !== "lang.name" && typeof en[k] === "string" && en[k] === s && cat[k] !== s)) bad.push("English: " + s);
		}
		return bad.join("; ");
	})()`)
	if got != "" {
		p.T.Errorf("%s: %s", code, got)
	}
}
