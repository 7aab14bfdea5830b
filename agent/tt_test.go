package agent

import "testing"

func TestTableBounds(t *testing.T) {
	tt := newTable(1)
	tt.gen = 1
	const key = 0xabcdef12345
	tt.store(key, 4, 2, 50, 10, 100, 3) // exact: 10 < 50 < 100
	if v, m, hit := tt.probe(key, 4, 2, -1000, 1000); !hit || v != 50 || m != 3 {
		t.Errorf("exact probe: %d %d %v", v, m, hit)
	}
	if _, m, hit := tt.probe(key, 5, 2, -1000, 1000); hit || m != 3 {
		t.Errorf("deeper probe: hit %v move %d, want a miss with move 3", hit, m)
	}
	if _, _, hit := tt.probe(key^1<<40, 1, 2, -1000, 1000); hit {
		t.Error("other key hit")
	}

	tt.store(key, 4, 2, 120, 10, 100, 1) // fail high: a lower bound
	if _, _, hit := tt.probe(key, 4, 2, 0, 200); hit {
		t.Error("lower bound 120 decided the window (0, 200)")
	}
	if v, _, hit := tt.probe(key, 4, 2, 0, 110); !hit || v != 120 {
		t.Errorf("lower bound 120, beta 110: %d %v", v, hit)
	}

	tt.store(key, 4, 2, 5, 10, 100, 1) // fail low: an upper bound
	if _, _, hit := tt.probe(key, 4, 2, 0, 200); hit {
		t.Error("upper bound 5 decided the window (0, 200)")
	}
	if v, _, hit := tt.probe(key, 4, 2, 8, 200); !hit || v != 5 {
		t.Errorf("upper bound 5, alpha 8: %d %v", v, hit)
	}
}

// TestTableWinDistance: a win 5 plies below a node at ply 2 is, met at ply
// 4, a win at ply 9.
func TestTableWinDistance(t *testing.T) {
	tt := newTable(1)
	tt.store(7, 6, 2, winScore-7, -infScore, infScore, 0)
	if v, _, hit := tt.probe(7, 6, 4, -infScore, infScore); !hit || v != winScore-9 {
		t.Errorf("win: %d %v, want %d", v, hit, winScore-9)
	}
	tt.store(8, 6, 2, -(winScore - 7), -infScore, infScore, 0)
	if v, _, hit := tt.probe(8, 6, 1, -infScore, infScore); !hit || v != -(winScore-6) {
		t.Errorf("loss: %d %v, want %d", v, hit, -(winScore - 6))
	}
}
