package onnx

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/advancedclimatesystems/gonnx"
	pb "github.com/advancedclimatesystems/gonnx/onnx"
	"google.golang.org/protobuf/proto"

	"kumalak/net"
	"kumalak/net/nettest"
)

func TestONNXStructure(t *testing.T) {
	c := net.Config{InputLen: 11, Actions: 6, Width: 8, Blocks: 2, ValueHidden: 3}
	p := testParams(c, 3)
	b, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m pb.ModelProto
	if err := proto.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.OpsetImport) != 1 || m.OpsetImport[0].Version != 13 || m.IrVersion != 7 {
		t.Errorf("opset %v, IR %d; want opset 13, IR 7", m.OpsetImport, m.IrVersion)
	}
	g := m.Graph
	if got := g.InputNames(); len(got) != 2 || got[0] != "obs" || got[1] != "mask" {
		t.Errorf("inputs %v", got)
	}
	if got := g.OutputNames(); len(got) != 2 || got[0] != "policy" || got[1] != "value" {
		t.Errorf("outputs %v", got)
	}
	if s := g.InputShapes()["obs"]; len(s) != 2 || !s[0].IsDynamic || s[1].Size != 11 {
		t.Errorf("obs shape %v", s)
	}
	if len(g.Initializer) != len(p.Tensors)+2 {
		t.Errorf("%d initializers, want %d", len(g.Initializer), len(p.Tensors)+2)
	}
	// gonnx accepts the opset and decodes every initializer.
	gm, err := gonnx.NewModelFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(gm.ParamNames()) != len(p.Tensors)+2 {
		t.Errorf("gonnx sees %d parameters", len(gm.ParamNames()))
	}
	if _, err := Marshal(net.NewParams(net.Config{})); err == nil {
		t.Error("MarshalONNX accepted an invalid config")
	}
}

// onnxRuntime returns the node binary and the check script, or skips the
// test when they are not installed (but fails under CI=true, where they
// must be: npm ci --prefix net/onnx/testdata).
func onnxRuntime(t *testing.T) (node, script string) {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "check.js"))
	if err != nil {
		t.Fatal(err)
	}
	node, err = exec.LookPath("node")
	missing := ""
	switch {
	case err != nil:
		missing = "node is not on PATH"
	default:
		if _, err := os.Stat(filepath.Join("testdata", "node_modules", "onnxruntime-node")); err != nil {
			missing = "onnxruntime-node is not installed (npm ci --prefix net/onnx/testdata)"
		}
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s", missing)
		}
		t.Skipf("skipping the onnxruntime check: %s", missing)
	}
	return node, script
}

func TestONNXMatchesInfer(t *testing.T) {
	node, script := onnxRuntime(t)
	for ci, c := range []net.Config{net.DefaultConfig(101, 9), {InputLen: 7, Actions: 40, Width: 33, Blocks: 0, ValueHidden: 5}} {
		p := testParams(c, uint64(ci)+20)
		const n = 17
		obs, mask := nettest.Inputs(c.InputLen, c.Actions, n, rand.New(rand.NewPCG(uint64(ci), 8)))
		dir := t.TempDir()
		model := filepath.Join(dir, "m.onnx")
		if err := Write(model, p); err != nil {
			t.Fatal(err)
		}
		in, err := json.Marshal(map[string]any{
			"n": n, "inputLen": c.InputLen, "actions": c.Actions, "obs": obs, "mask": mask,
		})
		if err != nil {
			t.Fatal(err)
		}
		input, output := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
		if err := os.WriteFile(input, in, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, node, script, model, input, output).CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", node, script, err, out)
		}
		var got struct{ Policy, Value []float32 }
		raw, err := os.ReadFile(output)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		priors, values := make([]float32, n*c.Actions), make([]float32, n)
		net.NewInfer(p, n).Run(obs, mask, priors, values)
		onnxCompare(t, "policy", got.Policy, priors)
		onnxCompare(t, "value", got.Value, values)
	}
}

func onnxCompare(t *testing.T, name string, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d numbers, want %d", name, len(got), len(want))
	}
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); d > 1e-4 || math.IsNaN(float64(got[i])) {
			t.Fatalf("%s[%d]: onnxruntime %v, net.Infer %v", name, i, got[i], want[i])
		}
	}
}

// testParams returns randomly initialised parameters with non-zero biases,
// so that every term of the forward pass is exercised.
func testParams(c net.Config, seed uint64) *net.Params {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := net.NewParams(c)
	p.Init(rng)
	for _, t := range p.Tensors {
		if len(t.Shape) == 1 {
			nettest.Normal(rng, t.Data, 0.1)
		}
	}
	return p
}
