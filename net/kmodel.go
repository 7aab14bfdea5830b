package net

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/google/renameio/v2"
	"github.com/nlpodyssey/safetensors"
)

// FormatVersion is the .kmodel format version this build writes and reads.
const FormatVersion = 1

// formatName is the value of the "format" metadata key of a .kmodel file.
const formatName = "kmodel"

// Errors a model file can be refused with; test them with errors.Is.
var (
	ErrCorrupt       = errors.New("corrupt model file")               // not a kmodel, truncated, bad checksum
	ErrFormatVersion = errors.New("unsupported model format version") // a newer or older format
	ErrWrongModel    = errors.New("model does not fit")               // another game or observation encoding
)

// Model is a network and the facts that describe it.
type Model struct {
	Params *Params
	Meta   Meta
}

// Meta describes a model: what it plays and how it was trained. The
// architecture is not here: it is Params.Config.
type Meta struct {
	Game       string    // game name, e.g. "togyz"
	ObsVersion string    // version of the game's observation encoding
	Steps      int64     // optimizer steps taken
	Samples    int64     // training samples seen
	Parent     string    // the model this one was trained from; "" if none
	Created    time.Time // when it was made; stored in UTC to the nanosecond
	Iteration  int       // training-loop iteration that produced it
	Card       *Card     // the model card `kumalak export` adds; nil if none
}

// Metadata keys of a .kmodel file, in the safetensors "__metadata__" map.
const (
	keyFormat      = "format"
	keyVersion     = "format_version"
	keyGame        = "game"
	keyObsVersion  = "obs_version"
	keyInputLen    = "input_len"
	keyActions     = "actions"
	keyWidth       = "width"
	keyBlocks      = "blocks"
	keyValueHidden = "value_hidden"
	keySteps       = "steps"
	keySamples     = "samples"
	keyParent      = "parent"
	keyCreated     = "created"
	keyIteration   = "iteration"
	keyCard        = "card"
	keyChecksum    = "checksum"
)

// Save writes m to path as a .kmodel file, atomically: it writes a
// temporary file in the same directory, syncs it, and renames it over path.
func Save(path string, m *Model) error {
	b, err := encodeModel(m)
	if err != nil {
		return fmt.Errorf("net: save %s: %w", path, err)
	}
	if err := renameio.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("net: save %s: %w", path, err)
	}
	return nil
}

// Load reads a .kmodel file. A file that is not a kmodel, is truncated or
// fails its checksum is refused with ErrCorrupt, another format version with
// ErrFormatVersion.
func Load(path string) (*Model, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("net: load: %w", err)
	}
	m, err := decodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("net: load %s: %w", path, err)
	}
	return m, nil
}

// LoadFor is Load that also refuses, with ErrWrongModel, a model made for
// another game or another observation encoding version.
func LoadFor(path, game, obsVersion string) (*Model, error) {
	m, err := Load(path)
	if err != nil {
		return nil, err
	}
	if err := m.Meta.Fits(game, obsVersion); err != nil {
		return nil, fmt.Errorf("net: load %s: %w", path, err)
	}
	return m, nil
}

// Fits returns nil if the model is for game and observation encoding
// obsVersion, and otherwise an ErrWrongModel error naming the difference.
func (m Meta) Fits(game, obsVersion string) error {
	switch {
	case m.Game != game:
		return modelError(ErrWrongModel, "model is for game %q, not %q", m.Game, game)
	case m.ObsVersion != obsVersion:
		return modelError(ErrWrongModel, "model uses observation encoding %q, not %q", m.ObsVersion, obsVersion)
	}
	return nil
}

// Marshal encodes m in the .kmodel format (see the package documentation).
func Marshal(m *Model) ([]byte, error) {
	b, err := encodeModel(m)
	if err != nil {
		return nil, fmt.Errorf("net: marshal model: %w", err)
	}
	return b, nil
}

func encodeModel(m *Model) ([]byte, error) {
	if err := m.Params.Config.Validate(); err != nil {
		return nil, unprefixed(err)
	}
	card, err := encodeCard(m.Meta.Card)
	if err != nil {
		return nil, err
	}
	views := make(map[string]safetensors.TensorView, len(m.Params.Tensors))
	for _, t := range m.Params.Tensors {
		shape := make([]uint64, len(t.Shape))
		for i, d := range t.Shape {
			shape[i] = uint64(d)
		}
		v, err := safetensors.NewTensorView(safetensors.F32, shape, float32Bytes(t.Data))
		if err != nil {
			return nil, fmt.Errorf("tensor %s: %w", t.Name, err)
		}
		views[t.Name] = v
	}
	return safetensors.Serialize(views, metaStrings(m, card))
}

// encodeCard returns the card's JSON, or "" for no card.
func encodeCard(c *Card) (string, error) {
	if c == nil {
		return "", nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("model card: %w", err)
	}
	return string(b), nil
}

func metaStrings(m *Model, card string) map[string]string {
	c, md := m.Params.Config, m.Meta
	created := ""
	if !md.Created.IsZero() {
		created = md.Created.UTC().Format(time.RFC3339Nano)
	}
	kv := map[string]string{
		keyFormat:      formatName,
		keyVersion:     strconv.Itoa(FormatVersion),
		keyGame:        md.Game,
		keyObsVersion:  md.ObsVersion,
		keyInputLen:    strconv.Itoa(c.InputLen),
		keyActions:     strconv.Itoa(c.Actions),
		keyWidth:       strconv.Itoa(c.Width),
		keyBlocks:      strconv.Itoa(c.Blocks),
		keyValueHidden: strconv.Itoa(c.ValueHidden),
		keySteps:       strconv.FormatInt(md.Steps, 10),
		keySamples:     strconv.FormatInt(md.Samples, 10),
		keyParent:      md.Parent,
		keyCreated:     created,
		keyIteration:   strconv.Itoa(md.Iteration),
		keyCard:        card,
	}
	kv[keyChecksum] = checksum(m.Params, kv)
	return kv
}

// checksum returns "sha256:" and the hex SHA-256 of p's tensors' bytes
// (float32 little-endian, tensor after tensor in Params order) followed by
// every metadata key but "checksum", sorted, each as key NUL value NUL.
func checksum(p *Params, kv map[string]string) string {
	h := sha256.New()
	var buf [4096]byte
	for _, t := range p.Tensors {
		for i := 0; i < len(t.Data); i += len(buf) / 4 {
			chunk := t.Data[i:min(i+len(buf)/4, len(t.Data))]
			for j, v := range chunk {
				binary.LittleEndian.PutUint32(buf[4*j:], math.Float32bits(v))
			}
			h.Write(buf[:4*len(chunk)])
		}
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		if k != keyChecksum {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		h.Write([]byte(k + "\x00" + kv[k] + "\x00"))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func float32Bytes(x []float32) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// Unmarshal decodes a .kmodel file's bytes. It never panics: whatever b
// holds, it returns a model or an error.
func Unmarshal(b []byte) (*Model, error) {
	m, err := decodeModel(b)
	if err != nil {
		return nil, fmt.Errorf("net: unmarshal model: %w", err)
	}
	return m, nil
}

// maxHeader bounds the JSON header, as the safetensors package does.
const maxHeader = 100_000_000

func decodeModel(b []byte) (*Model, error) {
	header, err := readHeader(b)
	if err != nil {
		return nil, err
	}
	kv := header.Metadata()
	c, meta, err := parseKV(kv)
	if err != nil {
		return nil, err
	}
	p, err := readTensors(c, header, b)
	if err != nil {
		return nil, err
	}
	if sum := checksum(p, kv); sum != kv[keyChecksum] {
		return nil, modelError(ErrCorrupt, "checksum mismatch")
	}
	p.FlushSubnormals() // after the checksum, which covers the bytes as stored
	return &Model{Params: p, Meta: meta}, nil
}

// parseKV reads the architecture and the metadata of a kmodel header's
// metadata map, checking the format and its version.
func parseKV(kv map[string]string) (Config, Meta, error) {
	if f := kv[keyFormat]; f != formatName {
		return Config{}, Meta{}, modelError(ErrCorrupt, "not a kmodel file (format %q)", f)
	}
	if v := kv[keyVersion]; v != strconv.Itoa(FormatVersion) {
		return Config{}, Meta{}, modelError(ErrFormatVersion, "format version %q, this build reads %d", v, FormatVersion)
	}
	c, err := parseConfig(kv)
	if err != nil {
		return c, Meta{}, err
	}
	meta, err := parseMeta(kv)
	return c, meta, err
}

// LoadMeta reads the metadata of a .kmodel file (its game, card and the
// rest of Meta) from its header alone, without reading or checking its
// tensors: Load does that. It is what a command reads to set up a model
// that an agent then loads.
func LoadMeta(path string) (Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return Meta{}, fmt.Errorf("net: load: %w", err)
	}
	defer f.Close()
	meta, err := readMeta(f)
	if err != nil {
		return Meta{}, fmt.Errorf("net: load %s: %w", path, err)
	}
	return meta, nil
}

// readMeta reads a kmodel header from r and returns its metadata.
func readMeta(r io.Reader) (Meta, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return Meta{}, modelError(ErrCorrupt, "truncated: no header length")
	}
	size := binary.LittleEndian.Uint64(n[:])
	if size > maxHeader {
		return Meta{}, modelError(ErrCorrupt, "not a safetensors file: header length %d", size)
	}
	header, err := io.ReadAll(io.LimitReader(r, int64(size)))
	if err != nil || uint64(len(header)) != size {
		return Meta{}, modelError(ErrCorrupt, "truncated: header of %d bytes", size)
	}
	var md safetensors.Metadata
	if err := md.UnmarshalJSON(header); err != nil {
		return Meta{}, modelError(ErrCorrupt, "not a safetensors file: %v", err)
	}
	_, meta, err := parseKV(md.Metadata())
	return meta, err
}

// readHeader parses and validates the safetensors header of b, naming a
// truncated file as such.
func readHeader(b []byte) (safetensors.Metadata, error) {
	var md safetensors.Metadata
	if len(b) < 8 {
		return md, modelError(ErrCorrupt, "truncated: %d bytes", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > maxHeader {
		return md, modelError(ErrCorrupt, "not a safetensors file: header length %d", n)
	}
	if n > uint64(len(b)-8) {
		return md, modelError(ErrCorrupt, "truncated: header of %d bytes, file of %d", n, len(b))
	}
	if err := md.UnmarshalJSON(b[8 : 8+n]); err != nil {
		return md, modelError(ErrCorrupt, "not a safetensors file: %v", err)
	}
	var end uint64
	for _, t := range md.Tensors() {
		end = max(end, t.DataOffsets[1])
	}
	if have := uint64(len(b)) - 8 - n; end != have {
		return md, modelError(ErrCorrupt, "truncated or padded: %d data bytes, header says %d", have, end)
	}
	_, md, err := safetensors.ReadMetadata(b)
	if err != nil {
		return md, modelError(ErrCorrupt, "bad safetensors layout: %v", err)
	}
	return md, nil
}

func parseConfig(kv map[string]string) (Config, error) {
	var c Config
	fields := []struct {
		key string
		dst *int
	}{
		{keyInputLen, &c.InputLen}, {keyActions, &c.Actions}, {keyWidth, &c.Width},
		{keyBlocks, &c.Blocks}, {keyValueHidden, &c.ValueHidden},
	}
	for _, f := range fields {
		v, err := strconv.Atoi(kv[f.key])
		if err != nil {
			return c, modelError(ErrCorrupt, "metadata %s: %q is not an integer", f.key, kv[f.key])
		}
		*f.dst = v
	}
	if err := c.Validate(); err != nil {
		return c, modelError(ErrCorrupt, "architecture: %v", unprefixed(err))
	}
	return c, nil
}

func parseMeta(kv map[string]string) (Meta, error) {
	m := Meta{Game: kv[keyGame], ObsVersion: kv[keyObsVersion], Parent: kv[keyParent]}
	var err error
	if m.Steps, err = strconv.ParseInt(kv[keySteps], 10, 64); err != nil {
		return m, modelError(ErrCorrupt, "metadata %s: %q is not an integer", keySteps, kv[keySteps])
	}
	if m.Samples, err = strconv.ParseInt(kv[keySamples], 10, 64); err != nil {
		return m, modelError(ErrCorrupt, "metadata %s: %q is not an integer", keySamples, kv[keySamples])
	}
	if m.Iteration, err = strconv.Atoi(kv[keyIteration]); err != nil {
		return m, modelError(ErrCorrupt, "metadata %s: %q is not an integer", keyIteration, kv[keyIteration])
	}
	if s := kv[keyCreated]; s != "" {
		if m.Created, err = time.Parse(time.RFC3339Nano, s); err != nil {
			return m, modelError(ErrCorrupt, "metadata %s: %q is not an RFC 3339 time", keyCreated, s)
		}
	}
	if s := kv[keyCard]; s != "" {
		if !json.Valid([]byte(s)) {
			return m, modelError(ErrCorrupt, "metadata %s is not valid JSON", keyCard)
		}
		m.Card = new(Card)
		if err := json.Unmarshal([]byte(s), m.Card); err != nil {
			return m, modelError(ErrCorrupt, "metadata %s is not a model card: %v", keyCard, err)
		}
	}
	return m, nil
}

// readTensors checks that the file holds exactly the tensors of c, as F32
// with the right shapes, before allocating them, then copies them out.
func readTensors(c Config, header safetensors.Metadata, b []byte) (*Params, error) {
	names, shapes := c.Names()
	infos := header.Tensors()
	if len(infos) != len(names) {
		return nil, modelError(ErrCorrupt, "%d tensors, architecture needs %d", len(infos), len(names))
	}
	data := b[8+binary.LittleEndian.Uint64(b):]
	for i, name := range names {
		info, ok := infos[name]
		if !ok {
			return nil, modelError(ErrCorrupt, "tensor %s missing", name)
		}
		if err := checkTensor(name, info, shapes[i], uint64(len(data))); err != nil {
			return nil, err
		}
	}
	p := NewParams(c)
	for _, t := range p.Tensors {
		off := infos[t.Name].DataOffsets
		raw := data[off[0]:off[1]]
		for j := range t.Data {
			t.Data[j] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*j:]))
		}
	}
	return p, nil
}

func checkTensor(name string, info *safetensors.TensorInfo, shape []int, dataLen uint64) error {
	if info.DType != safetensors.F32 {
		return modelError(ErrCorrupt, "tensor %s has dtype %v, want F32", name, info.DType)
	}
	same := len(info.Shape) == len(shape)
	size := uint64(4)
	for i := 0; same && i < len(shape); i++ {
		same = info.Shape[i] == uint64(shape[i])
		size *= uint64(shape[i])
	}
	if !same {
		return modelError(ErrCorrupt, "tensor %s has shape %v, want %v", name, info.Shape, shape)
	}
	off := info.DataOffsets
	if off[0] > off[1] || off[1] > dataLen || off[1]-off[0] != size {
		return modelError(ErrCorrupt, "tensor %s has bad data offsets %v", name, off)
	}
	return nil
}

// unprefixed returns a ValueError's reason as an error, for errors that
// are wrapped again with a path; any other error as it is.
func unprefixed(err error) error {
	if ve, ok := errors.AsType[*ValueError](err); ok {
		return errors.New(ve.Reason)
	}
	return err
}

// modelErr is an error that reads as its message and matches its kind
// under errors.Is.
type modelErr struct {
	kind error
	msg  string
}

func modelError(kind error, format string, args ...any) error {
	return &modelErr{kind: kind, msg: fmt.Sprintf(format, args...)}
}

func (e *modelErr) Error() string        { return e.msg }
func (e *modelErr) Is(target error) bool { return target == e.kind }
