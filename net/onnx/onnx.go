package onnx

import (
	"encoding/binary"
	"fmt"
	"math"

	pb "github.com/advancedclimatesystems/gonnx/onnx"
	"github.com/google/renameio/v2"
	"google.golang.org/protobuf/proto"

	"kumalak/net"
)

// ONNX export constants: the graph uses the default domain at opset 13
// (IR version 7), which onnxruntime and gonnx both run.
const (
	onnxOpset     = 13
	onnxIRVersion = 7
	onnxMaskBig   = 1e9 // (mask-1)·1e9 added to the logits drives illegal ones to −1e9
)

// Write writes p as an ONNX model (opset 13) to path, atomically. The
// graph has inputs "obs" [N, InputLen] and "mask" [N, Actions] (float32, 1
// legal / 0 illegal) and outputs "policy" [N, Actions], the softmax of
// logits + (mask−1)·1e9, and "value" [N, 1]. For a row with at least one
// legal action it computes what net.Infer.Run does; a row with no legal action
// gets a uniform policy instead of zeros.
func Write(path string, p *net.Params) error {
	b, err := encodeONNX(p)
	if err != nil {
		return fmt.Errorf("onnx: write %s: %w", path, err)
	}
	if err := renameio.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("onnx: write %s: %w", path, err)
	}
	return nil
}

// Marshal returns the ONNX model Write writes.
func Marshal(p *net.Params) ([]byte, error) {
	b, err := encodeONNX(p)
	if err != nil {
		return nil, fmt.Errorf("onnx: marshal: %w", err)
	}
	return b, nil
}

func encodeONNX(p *net.Params) ([]byte, error) {
	if err := p.Config.Validate(); err != nil {
		return nil, err
	}
	m := &pb.ModelProto{
		IrVersion:       onnxIRVersion,
		OpsetImport:     []*pb.OperatorSetIdProto{{Domain: "", Version: onnxOpset}},
		ProducerName:    "kumalak",
		ProducerVersion: fmt.Sprint(net.FormatVersion),
		Graph:           onnxGraph(p),
	}
	return proto.Marshal(m)
}

// onnxBuilder accumulates the nodes and initializers of a graph.
type onnxBuilder struct {
	g *pb.GraphProto
	n int // node counter for unique names
}

func onnxGraph(p *net.Params) *pb.GraphProto {
	c := p.Config
	gb := &onnxBuilder{g: &pb.GraphProto{Name: "kumalak"}}
	for _, t := range p.Tensors {
		gb.initializer(t.Name, t.Shape, t.Data)
	}
	gb.initializer("const.one", []int{1}, []float32{1})
	gb.initializer("const.big", []int{1}, []float32{onnxMaskBig})

	h := gb.op1("Relu", gb.dense("obs", "in"))
	for k := 0; k < c.Blocks; k++ {
		pre := fmt.Sprintf("b%d", k)
		t := gb.op1("Relu", gb.dense(h, pre+".fc1"))
		u := gb.dense(t, pre+".fc2")
		h = gb.op1("Relu", gb.op2("Add", h, u))
	}
	logits := gb.dense(h, "policy")
	penalty := gb.op2("Mul", gb.op2("Sub", "mask", "const.one"), "const.big")
	gb.node("Softmax", []string{gb.op2("Add", logits, penalty)}, "policy",
		&pb.AttributeProto{Name: "axis", Type: pb.AttributeProto_INT, I: 1})
	vh := gb.op1("Relu", gb.matAdd(h, "value.w1", "value.b1"))
	gb.node("Tanh", []string{gb.matAdd(vh, "value.w2", "value.b2")}, "value")

	gb.g.Input = []*pb.ValueInfoProto{onnxInput("obs", c.InputLen), onnxInput("mask", c.Actions)}
	gb.g.Output = []*pb.ValueInfoProto{onnxInput("policy", c.Actions), onnxInput("value", 1)}
	return gb.g
}

func (gb *onnxBuilder) initializer(name string, shape []int, data []float32) {
	dims := make([]int64, len(shape))
	for i, d := range shape {
		dims[i] = int64(d)
	}
	gb.g.Initializer = append(gb.g.Initializer, &pb.TensorProto{
		Name:     name,
		Dims:     dims,
		DataType: int32(pb.TensorProto_FLOAT),
		RawData:  float32Bytes(data),
	})
}

// node appends one node writing output and returns output.
func (gb *onnxBuilder) node(op string, inputs []string, output string, attrs ...*pb.AttributeProto) string {
	gb.n++
	gb.g.Node = append(gb.g.Node, &pb.NodeProto{
		Name:      fmt.Sprintf("%s_%d", op, gb.n),
		OpType:    op,
		Input:     inputs,
		Output:    []string{output},
		Attribute: attrs,
	})
	return output
}

func (gb *onnxBuilder) op1(op, x string) string {
	return gb.node(op, []string{x}, fmt.Sprintf("t%d", gb.n+1))
}

func (gb *onnxBuilder) op2(op, x, y string) string {
	return gb.node(op, []string{x, y}, fmt.Sprintf("t%d", gb.n+1))
}

// dense returns x·prefix.w + prefix.b.
func (gb *onnxBuilder) dense(x, prefix string) string {
	return gb.matAdd(x, prefix+".w", prefix+".b")
}

func (gb *onnxBuilder) matAdd(x, w, b string) string {
	return gb.op2("Add", gb.op2("MatMul", x, w), b)
}

// onnxInput describes a float tensor [N, cols] with a symbolic batch size.
func onnxInput(name string, cols int) *pb.ValueInfoProto {
	return &pb.ValueInfoProto{
		Name: name,
		Type: &pb.TypeProto{Value: &pb.TypeProto_TensorType{TensorType: &pb.TypeProto_Tensor{
			ElemType: int32(pb.TensorProto_FLOAT),
			Shape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dimension{
				{Value: &pb.TensorShapeProto_Dimension_DimParam{DimParam: "N"}},
				{Value: &pb.TensorShapeProto_Dimension_DimValue{DimValue: int64(cols)}},
			}},
		}}},
	}
}

// float32Bytes returns x as little-endian bytes, ONNX's raw_data layout.
func float32Bytes(x []float32) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}
