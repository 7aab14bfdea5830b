package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"kumalak/env"
)

// playOKRecord is a togyz game as PlayOK exports it (docs/RECORDS.md,
// "PlayOK records"): no Game tag, the mover's kazan in parentheses after
// a capture, X for a tuzdyk, move pairs wrapped across lines, and a
// resignation or a loss on time at move 49.
const playOKRecord = `[Event "?"]
[Site "PlayOK"]
[Date "2025.08.26"]
[Round "-"]
[White "darru"]
[Black "harrison01"]
[Result "1-0"]
[Time "20:55:03"]
[TimeControl "180"]
[WhiteElo "1200"]
[BlackElo "1201"]

1. 76(10) 76(10) 2. 99 89(12) 3. 67 34(24) 4. 56X 47 5. 36
14X 6. 57 12 7. 74(20) 12 8. 92(38) 12 9. 69 72 10. 78 78
11. 16 45 12. 67 23 13. 92(41) 96 14. 71(46) 23 15. 12
91(31) 16. 67 45 17. 78 32 18. 22 45 19. 67 45 20. 12
86(35) 21. 59 12 22. 25 92(38) 23. 82(53) 79 24. 23 45 25.
67 35 26. 73(55) 13 27. 97(58) 12 28. 57 92 29. 15 91(42)
30. 56 45 31. 81(60) 45 32. 78 34 33. 91 12 34. 33(62) 12
35. 78 28 36. 82(65) 45 37. 89 59(51) 38. 62(69) 13 39.
81(71) 23 40. 91 12 41. 89 23 42. 58 91 43. 67 37 44.
73(74) 12 45. 13 91(53) 46. 36 57 47. 26 72(57) 48. 12
85(62) 49. 89 1-0
`

// playOKFinal is the position the record reaches.
const playOKFinal = "1,2,3,0,0,3,1,1,4/0,2,0,3,1,0,1,1,2 75 62 6 4 b"

// stateRecord posts a record to /api/state for game from position.
func stateRecord(t *testing.T, ts *httptest.Server, game, position, record string) (View, int, string) {
	t.Helper()
	body, err := json.Marshal(map[string]string{"game": game, "position": position, "record": record})
	if err != nil {
		t.Fatal(err)
	}
	var v View
	code, raw := post(t, ts, "/api/state", string(body), &v)
	return v, code, raw
}

// pageRecord is the record the page's copy button writes (recordText in
// page/app.js): the Game tag, the Position tag for a set-up start, the
// notation and the result.
func pageRecord(v View, position string) string {
	t := "[Game \"" + v.Game + "\"]\n"
	if position != "start" {
		t += "[Position \"" + position + "\"]\n"
	}
	if v.Notation != "" {
		t += v.Notation + " "
	}
	return t + v.Result + "\n"
}

// moveList is the page's move list as a person copies it (renderRecord in
// page/app.js): each move's token, "+N" after a capture and "↻" after an
// extra turn; togyz a line a move pair, "…" before a first move of
// black's; the other games a line a move after the mover's side. numbered
// adds the list's numbers, which some browsers copy.
func moveList(v View, numbered bool) string {
	var lines []string
	for i, p := range v.Plies {
		tok := p.Token
		if p.Captured > 0 {
			tok += fmt.Sprintf("+%d", p.Captured)
		}
		if p.Extra {
			tok += "↻"
		}
		switch {
		case v.Game != "togyz":
			tok = map[string]string{"w": "white", "b": "black"}[p.Mover] + " " + tok
		case p.Mover == "w" || i == 0:
			if p.Mover == "b" {
				tok = "… " + tok
			}
		default:
			lines[len(lines)-1] += " " + tok
			continue
		}
		lines = append(lines, tok)
	}
	if numbered {
		for i := range lines {
			lines[i] = fmt.Sprintf("%d. %s", i+1, lines[i])
		}
	}
	return strings.Join(lines, "\n")
}

// TestStateReadsWhatThePageWrites: the paste box (/api/state's record)
// reads back whatever the page shows as a game, its copied record and its
// move list, for every game from the start and from a start with black to
// move, and PlayOK's export of a togyz game.
func TestStateReadsWhatThePageWrites(t *testing.T) {
	ts := newTestServer(t, "random", nil)
	for _, name := range []string{"togyz", "mangala", "mangala-kale", "kalah"} {
		spec, err := env.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		home := spec.New().String()
		for _, position := range []string{"start", strings.TrimSuffix(home, "w") + "b"} {
			st, err := spec.Start(position)
			if err != nil {
				t.Fatal(err)
			}
			var pits []int
			var buf [env.MaxActions]env.Action
			for i := 0; st.Result() == env.Ongoing && i < 200; i++ {
				legal := st.Legal(buf[:0])
				a := legal[(i*7+3)%len(legal)]
				st.Apply(a)
				pits = append(pits, a.Pit())
			}
			moves, _ := json.Marshal(pits)
			var v View
			if code, body := post(t, ts, "/api/state", fmt.Sprintf(`{"game":%q,"position":%q,"moves":%s}`, name, position, moves), &v); code != http.StatusOK {
				t.Fatalf("%s from %s: %d %s", name, position, code, body)
			}
			for _, rec := range []string{pageRecord(v, position), moveList(v, false), moveList(v, true)} {
				back, code, body := stateRecord(t, ts, name, position, rec)
				if code != http.StatusOK || !slices.Equal(back.Moves, v.Moves) || back.Position != v.Position {
					t.Errorf("%s from %s: %d %s\nfor\n%s", name, position, code, body, rec)
				}
			}
		}
	}
	v, code, body := stateRecord(t, ts, "togyz", "start", playOKRecord)
	if code != http.StatusOK || len(v.Moves) != 97 || v.Position != playOKFinal {
		t.Fatalf("PlayOK's export: %d %s", code, body)
	}
	_, code, body = stateRecord(t, ts, "togyz", "start", strings.Replace(playOKRecord, "92(41)", "92(40)", 1))
	if code != http.StatusBadRequest || !strings.Contains(body, "move 25 (92(40)): white's kazan holds 41 after it, but the record says 40") {
		t.Errorf("a wrong kazan: %d %s", code, body)
	}
}

// TestBrowserPastesPlayOK: the page loads PlayOK's export pasted into its
// record box, and its own move list pasted back.
func TestBrowserPastesPlayOK(t *testing.T) {
	ts := newTestServer(t, "ab:depth=1", nil)
	p := openPage(t, ts, 1200, 900)
	p.Run("paste PlayOK's export", chromedp.Evaluate[chromedp.Void](`document.getElementById("setup").open = true`),
		chromedp.SetValue(chromedp.CSS("#recordin"), playOKRecord), chromedp.Click(chromedp.CSS("#load")),
		p.Wait(`document.getElementById("announce").textContent === "Loaded 97 moves."`))
	list := p.Text(`document.getElementById("record").innerText`)
	if !strings.HasPrefix(list, "76+10 76+10\n99 89+2\n67 34+12\n56x+3 47\n") {
		t.Errorf("move list %q", list)
	}
	p.Run("paste the move list back", chromedp.Evaluate[chromedp.Void](`document.getElementById("announce").textContent = ""`),
		chromedp.SetValue(chromedp.CSS("#recordin"), list), chromedp.Click(chromedp.CSS("#load")),
		p.Wait(`document.getElementById("announce").textContent === "Loaded 97 moves."`))
	if got := p.Text(`document.getElementById("record").innerText`); got != list {
		t.Errorf("move list read back as %q, want %q", got, list)
	}
	p.CheckConsole()
}
