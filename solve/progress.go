package solve

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// progPlies is how many plies below a test's root the main worker
// publishes where it stands.
const progPlies = 4

// progress is where the main worker of a resumable solve stands in the
// tree of its current null-window test, for the saves' log lines: at each
// of the first progPlies plies, the move it is searching (0-based) and how
// many there are, packed i<<8 | n (0: not reached).
type progress struct {
	at    [progPlies]atomic.Uint32
	move  atomic.Int32 // the root move under test, 1-based pit (0: none yet)
	since atomic.Int64 // when its test began, Unix nanoseconds
}

// enter records that the worker searches move i of n at ply (< progPlies)
// and forgets the ply below, which it has not reached in this move yet.
func (pr *progress) enter(ply, i, n int) {
	pr.at[ply].Store(uint32(i)<<8 | uint32(n))
	if ply+1 < progPlies {
		pr.at[ply+1].Store(0)
	}
}

// begin records the start of a test of the root move pit.
func (pr *progress) begin(pit int, now time.Time) {
	for i := range pr.at {
		pr.at[i].Store(0)
	}
	pr.since.Store(now.UnixNano())
	pr.move.Store(int32(pit))
}

// line describes the test under way: the root move, how long it has run,
// the moves being searched at the first plies ("3/6 1/5"), the share of
// the test's tree behind them if every move cost alike, and from it the
// time left at that rate. The share is a guess: alpha-beta's first moves
// cost the most, so it runs ahead of the truth early in a test.
func (pr *progress) line(now time.Time) string {
	pit := pr.move.Load()
	if pit == 0 {
		return ""
	}
	ran := now.Sub(time.Unix(0, pr.since.Load()))
	var at []string
	done, width := 0.0, 1.0
	for i := range pr.at {
		v := pr.at[i].Load()
		n := int(v & 0xff)
		if n == 0 {
			break
		}
		k := int(v >> 8)
		at = append(at, fmt.Sprintf("%d/%d", k+1, n))
		done += width * float64(k) / float64(n)
		width /= float64(n)
	}
	s := fmt.Sprintf("testing move %d for %v", pit, ran.Round(time.Second))
	if len(at) == 0 {
		return s
	}
	s += fmt.Sprintf(", at moves %s of the first plies: about %.0f%% of the test", strings.Join(at, " "), 100*done)
	if done > 0.01 {
		left := time.Duration(float64(ran) * (1 - done) / done)
		s += fmt.Sprintf(", %v more if the rest costs alike", left.Round(time.Minute))
	}
	return s
}
