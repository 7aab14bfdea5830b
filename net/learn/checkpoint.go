package learn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// Checkpoint is a Trainer's state besides the weights of its network: the
// step count and schedule state, Adam's moments of every learnable tensor,
// and the weights of the training-only tensors (the auxiliary score head),
// which no model file holds. A Trainer built from the same weights and
// restored from its Checkpoint continues exactly as the original would.
type Checkpoint struct {
	Steps      int64              // global steps taken: the warm-up's clock
	Updates    int64              // optimizer updates since the moments were zero: Adam's bias correction
	LastLR     float64            // the rate of the last step (0 before the first)
	RewarmFrom float64            // the rate a re-warm started from
	RewarmAt   int64              // the step a re-warm started at; -1 = none
	Tensors    []CheckpointTensor // in the trainer's order
}

// CheckpointTensor is the optimizer's state of one learnable tensor.
type CheckpointTensor struct {
	Name       string
	Rows, Cols int
	M, V       []float32 // Adam's first and second moments, Rows*Cols each
	Value      []float32 // the weights of a training-only tensor; nil for the network's own
}

// The file format, little-endian:
//
//	magic      8 bytes  "KUMAOPT\x00"
//	version    uint32   checkpointVersion
//	length     uint64   the whole file's length in bytes, checksum included
//	steps      int64
//	updates    int64
//	last_lr    float64
//	rewarm_lr  float64
//	rewarm_at  int64
//	tensors    uint32   count, then per tensor:
//	  name     uint16 length, then the bytes
//	  rows     uint32
//	  cols     uint32
//	  has_value uint8   1 for a training-only tensor
//	  m, v     rows*cols float32 each
//	  value    rows*cols float32, when has_value
//	crc32c     uint32   Castagnoli CRC of every byte before it
const (
	checkpointMagic   = "KUMAOPT\x00"
	checkpointVersion = 1
	checkpointHeader  = 8 + 4 + 8 + 5*8 + 4
	maxNameLen        = 256
	maxTensors        = 4096
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary encodes c in the checkpoint file format.
func (c *Checkpoint) MarshalBinary() ([]byte, error) {
	b := append(make([]byte, 0, c.size()), checkpointMagic...)
	b = binary.LittleEndian.AppendUint32(b, checkpointVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(c.size()))
	for _, x := range []uint64{uint64(c.Steps), uint64(c.Updates), math.Float64bits(c.LastLR),
		math.Float64bits(c.RewarmFrom), uint64(c.RewarmAt)} {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(c.Tensors)))
	for _, t := range c.Tensors {
		if len(t.Name) > maxNameLen || len(t.M) != t.Rows*t.Cols || len(t.V) != len(t.M) ||
			(t.Value != nil && len(t.Value) != len(t.M)) {
			return nil, fmt.Errorf("learn: encode checkpoint: tensor %q is malformed", t.Name)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(t.Name)))
		b = append(b, t.Name...)
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Rows))
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Cols))
		b = append(b, boolByte(t.Value != nil))
		b = appendFloats(appendFloats(appendFloats(b, t.M), t.V), t.Value)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// size is the encoded length of c.
func (c *Checkpoint) size() int {
	n := checkpointHeader + 4
	for _, t := range c.Tensors {
		n += 2 + len(t.Name) + 9 + 4*(len(t.M)+len(t.V)+len(t.Value))
	}
	return n
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

func appendFloats(b []byte, xs []float32) []byte {
	for _, x := range xs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// UnmarshalBinary decodes a checkpoint file, refusing one that is
// truncated, corrupted (checksum), of another version, or whose values are
// out of range (negative counts, non-finite moments or rates).
func (c *Checkpoint) UnmarshalBinary(b []byte) error {
	if err := checkFrame(b); err != nil {
		return fmt.Errorf("learn: checkpoint: %w", err)
	}
	d := decoder{b: b[len(checkpointMagic)+4+8 : len(b)-4]}
	var out Checkpoint
	out.Steps, out.Updates = int64(d.u64()), int64(d.u64())
	out.LastLR, out.RewarmFrom = math.Float64frombits(d.u64()), math.Float64frombits(d.u64())
	out.RewarmAt = int64(d.u64())
	n := d.u32()
	if n > maxTensors {
		return fmt.Errorf("learn: checkpoint: %d tensors, at most %d", n, maxTensors)
	}
	for i := uint32(0); i < n && d.err == nil; i++ {
		out.Tensors = append(out.Tensors, d.tensor())
	}
	switch {
	case d.err != nil:
		return fmt.Errorf("learn: checkpoint: %w", d.err)
	case len(d.b) != 0:
		return fmt.Errorf("learn: checkpoint: %d bytes after the last tensor", len(d.b))
	}
	if err := out.validate(); err != nil {
		return fmt.Errorf("learn: checkpoint: %w", err)
	}
	*c = out
	return nil
}

// checkFrame checks the magic, version, length and checksum.
func checkFrame(b []byte) error {
	if len(b) < checkpointHeader+4 {
		return fmt.Errorf("truncated: %d bytes, shorter than the header", len(b))
	}
	if string(b[:len(checkpointMagic)]) != checkpointMagic {
		return errors.New("not an optimizer checkpoint (bad magic)")
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != checkpointVersion {
		return fmt.Errorf("version %d, this build reads %d", v, checkpointVersion)
	}
	if n := binary.LittleEndian.Uint64(b[12:]); n != uint64(len(b)) {
		if n > uint64(len(b)) {
			return fmt.Errorf("truncated: %d of %d bytes", len(b), n)
		}
		return fmt.Errorf("%d bytes, the header says %d", len(b), n)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return errors.New("checksum mismatch")
	}
	return nil
}

// validate checks the ranges of a decoded checkpoint.
func (c *Checkpoint) validate() error {
	finite := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	switch {
	case c.Steps < 0 || c.Updates < 0 || c.Updates > c.Steps:
		return fmt.Errorf("steps %d, updates %d: want 0 <= updates <= steps", c.Steps, c.Updates)
	case !finite(c.LastLR) || !finite(c.RewarmFrom):
		return fmt.Errorf("rates %g, %g: want finite and >= 0", c.LastLR, c.RewarmFrom)
	case c.RewarmAt < -1 || c.RewarmAt > c.Steps:
		return fmt.Errorf("re-warm step %d out of range -1..%d", c.RewarmAt, c.Steps)
	}
	seen := map[string]bool{}
	for _, t := range c.Tensors {
		if seen[t.Name] {
			return fmt.Errorf("tensor %q appears twice", t.Name)
		}
		seen[t.Name] = true
		if n := t.Rows * t.Cols; t.Rows < 1 || t.Cols < 1 || len(t.M) != n || len(t.V) != n || (t.Value != nil && len(t.Value) != n) {
			return fmt.Errorf("tensor %q: %d/%d/%d values for shape %dx%d", t.Name, len(t.M), len(t.V), len(t.Value), t.Rows, t.Cols)
		}
		for _, v := range t.V {
			if !(v >= 0) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("tensor %q: second moment %g is not finite and >= 0", t.Name, v)
			}
		}
		for _, xs := range [][]float32{t.M, t.Value} {
			for _, x := range xs {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					return fmt.Errorf("tensor %q holds %g", t.Name, x)
				}
			}
		}
	}
	return nil
}

// decoder reads little-endian fields from b, recording the first overrun.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n > len(d.b) {
		if d.err == nil {
			d.err = errors.New("a tensor runs past the end")
		}
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u64() uint64 {
	if p := d.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if p := d.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

func (d *decoder) u16() uint16 {
	if p := d.take(2); p != nil {
		return binary.LittleEndian.Uint16(p)
	}
	return 0
}

func (d *decoder) floats(n int) []float32 {
	p := d.take(4 * n)
	if p == nil {
		return nil
	}
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[4*i:]))
	}
	return xs
}

// tensor reads one tensor record.
func (d *decoder) tensor() CheckpointTensor {
	var t CheckpointTensor
	nameLen := int(d.u16())
	if nameLen > maxNameLen {
		d.err = fmt.Errorf("tensor name of %d bytes, at most %d", nameLen, maxNameLen)
		return t
	}
	t.Name = string(d.take(nameLen))
	rows, cols := d.u32(), d.u32()
	hasValue := d.take(1)
	if d.err != nil {
		return t
	}
	if rows == 0 || cols == 0 || uint64(rows)*uint64(cols) > uint64(len(d.b))/8 || hasValue[0] > 1 {
		d.err = fmt.Errorf("tensor %q: shape %dx%d (value flag %d) does not fit the file", t.Name, rows, cols, hasValue[0])
		return t
	}
	t.Rows, t.Cols = int(rows), int(cols)
	n := t.Rows * t.Cols
	t.M, t.V = d.floats(n), d.floats(n)
	if hasValue[0] == 1 {
		t.Value = d.floats(n)
	}
	return t
}
