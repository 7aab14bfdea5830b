package net

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Config describes a network architecture: a residual MLP.
//
//	x (InputLen)
//	h = relu(x·in.w + in.b)                                   width Width
//	Blocks times: h = relu(h + relu(h·bK.fc1.w + bK.fc1.b)·bK.fc2.w + bK.fc2.b)
//	policy logits = h·policy.w + policy.b                     Actions
//	value = tanh(relu(h·value.w1 + value.b1)·value.w2 + value.b2)   1
//
// Illegal actions are masked (logit -> -inf) before the softmax.
type Config struct {
	InputLen    int `yaml:"-"`            // observation length (from the game)
	Actions     int `yaml:"-"`            // action count (from the game)
	Width       int `yaml:"width"`        // hidden width
	Blocks      int `yaml:"blocks"`       // residual blocks
	ValueHidden int `yaml:"value_hidden"` // hidden units of the value head
}

// DefaultConfig returns the default sizes for a game's input and actions.
func DefaultConfig(inputLen, actions int) Config {
	return Config{InputLen: inputLen, Actions: actions, Width: 128, Blocks: 2, ValueHidden: 64}
}

// Validate names the first field out of range.
func (c Config) Validate() error {
	switch {
	case c.InputLen < 1 || c.InputLen > 1<<16:
		return invalid("input_len %d out of range 1..65536", c.InputLen)
	case c.Actions < 1 || c.Actions > 256:
		return invalid("actions %d out of range 1..256", c.Actions)
	case c.Width < 1 || c.Width > 4096:
		return invalid("width %d out of range 1..4096", c.Width)
	case c.Blocks < 0 || c.Blocks > 64:
		return invalid("blocks %d out of range 0..64", c.Blocks)
	case c.ValueHidden < 1 || c.ValueHidden > 4096:
		return invalid("value_hidden %d out of range 1..4096", c.ValueHidden)
	}
	return nil
}

// ValueError is the error of Config.Validate: Reason names the field and
// its range without the package's name ("width 0 out of range 1..4096").
type ValueError struct{ Reason string }

func (e *ValueError) Error() string { return "net: " + e.Reason }

// Why is the reason alone, without the package's name, for a command
// that names its own.
func (e *ValueError) Why() string { return e.Reason }

func invalid(format string, args ...any) error {
	return &ValueError{Reason: fmt.Sprintf(format, args...)}
}

// Tensor is one named parameter, row-major float32.
type Tensor struct {
	Name  string
	Shape []int // [rows, cols] for weights, [n] for biases
	Data  []float32
}

// Params holds every parameter of a network in a fixed order (Names).
type Params struct {
	Config  Config
	Tensors []*Tensor
	byName  map[string]*Tensor
}

// Names returns the parameter names and shapes of c in their fixed order.
func (c Config) Names() (names []string, shapes [][]int) {
	add := func(n string, s ...int) { names = append(names, n); shapes = append(shapes, s) }
	add("in.w", c.InputLen, c.Width)
	add("in.b", c.Width)
	for k := 0; k < c.Blocks; k++ {
		add(fmt.Sprintf("b%d.fc1.w", k), c.Width, c.Width)
		add(fmt.Sprintf("b%d.fc1.b", k), c.Width)
		add(fmt.Sprintf("b%d.fc2.w", k), c.Width, c.Width)
		add(fmt.Sprintf("b%d.fc2.b", k), c.Width)
	}
	add("policy.w", c.Width, c.Actions)
	add("policy.b", c.Actions)
	add("value.w1", c.Width, c.ValueHidden)
	add("value.b1", c.ValueHidden)
	add("value.w2", c.ValueHidden, 1)
	add("value.b2", 1)
	return names, shapes
}

// NewParams returns zeroed parameters for c.
func NewParams(c Config) *Params {
	p := &Params{Config: c, byName: map[string]*Tensor{}}
	names, shapes := c.Names()
	for i, n := range names {
		size := 1
		for _, d := range shapes[i] {
			size *= d
		}
		t := &Tensor{Name: n, Shape: shapes[i], Data: make([]float32, size)}
		p.Tensors = append(p.Tensors, t)
		p.byName[n] = t
	}
	return p
}

// Init fills weights with He-normal values (biases zero), from rng. The
// second layer of each residual block starts scaled down so that a fresh
// network is close to its skip path.
func (p *Params) Init(rng *rand.Rand) {
	for _, t := range p.Tensors {
		if len(t.Shape) != 2 {
			continue
		}
		std := math.Sqrt(2 / float64(t.Shape[0]))
		if isBlockFC2(t.Name) || t.Name == "policy.w" || t.Name == "value.w2" {
			std *= 0.1
		}
		for i := range t.Data {
			t.Data[i] = float32(rng.NormFloat64() * std)
		}
	}
}

func isBlockFC2(name string) bool {
	return len(name) > 7 && name[0] == 'b' && name[len(name)-6:] == ".fc2.w"
}

// Get returns the named tensor; it panics on an unknown name.
func (p *Params) Get(name string) *Tensor {
	t, ok := p.byName[name]
	if !ok {
		panic("net: no parameter " + name)
	}
	return t
}

// Clone returns a deep copy of p.
func (p *Params) Clone() *Params {
	q := NewParams(p.Config)
	for i, t := range p.Tensors {
		copy(q.Tensors[i].Data, t.Data)
	}
	return q
}

// Count returns the number of scalar parameters.
func (p *Params) Count() int {
	n := 0
	for _, t := range p.Tensors {
		n += len(t.Data)
	}
	return n
}
