package agenttest

import (
	"testing"

	"kumalak/env"
	"kumalak/env/envtest"
)

func TestConformance(t *testing.T) {
	envtest.Run(t, Spec, 200, 1)
	envtest.Allocs(t, Spec)
}

func TestExtraTurnAndCapture(t *testing.T) {
	b, err := Parse("0,2,1/0,1,1 7 6 w 10")
	if err != nil {
		t.Fatal(err)
	}
	b.Apply(2) // last stone in the store: white again
	if b.ToMove() != env.White || b.Store(env.White) != 8 {
		t.Fatalf("after pit 3: %s, want white to move with 8", b)
	}
	c, _ := Parse("1,0,2/1,4,1 4 5 w 6")
	c.Apply(0) // into empty pit 2, opposite black pit 2 holds 4
	if got, want := c.String(), "0,0,2/1,0,1 9 5 b 7"; got != want {
		t.Fatalf("capture: %s, want %s", got, want)
	}
}
