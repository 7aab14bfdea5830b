package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"

	"kumalak/data"
)

// Format constants of a sample-batch message; doc.go lays it out field by field.
const (
	BatchMagic   = "KMLKBTCH" // first 8 bytes of every batch message
	BatchVersion = 1          // the only batch format version this build reads and writes
	// MaxBatchBytes bounds the uncompressed records of one batch.
	MaxBatchBytes = 16 << 20
	// MaxBatchSamples bounds the samples of one batch.
	MaxBatchSamples = 1 << 16
	maxField        = 255 // longest string field, bytes
	// MaxRatio bounds the compression ratio a batch may claim: records of
	// self-play compress about 7 times, zeros about 40.
	MaxRatio = 256
)

// Errors wrapped by DecodeBatch and Batch.Check, for errors.Is. Each is one
// rejection reason that the trainer counts.
var (
	ErrBadMagic = errors.New("bad magic (not a kumalak batch)")
	ErrVersion  = errors.New("unsupported batch format version")
	ErrCorrupt  = errors.New("corrupt batch")
	ErrForeign  = errors.New("batch of another run, game or encoding")
)

// Byte offsets of the fixed part of the batch header.
const (
	bOffVersion    = 8
	bOffHeaderSize = 10
	bOffObsLen     = 12
	bOffNumActions = 16
	bOffCount      = 20
	bOffGames      = 24
	bOffNetwork    = 28
	bOffCreated    = 36
	bOffPayload    = 44
	bOffPayloadCRC = 48
	bFixed         = 52
	bMinHeader     = bFixed + 5 + 4 // five empty strings and the CRC
	bMaxHeader     = bMinHeader + 5*maxField
)

var (
	le         = binary.LittleEndian
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	encoder    = sync.OnceValues(func() (*zstd.Encoder, error) {
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithSingleSegment(true))
	})
	decoder = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil, zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxMemory(MaxBatchBytes), zstd.WithDecoderConcurrency(0))
	})
)

// Batch is one message of the sample stream: the samples of whole
// self-play games played by one worker with one network version.
type Batch struct {
	ID      string      // message id, unique per batch: "<worker>.<session>.<seq>"; Nats-Msg-Id
	Run     string      // run id the batch was played for
	Worker  string      // worker id
	Layout  data.Layout // game, observation encoding and sizes of every sample
	Network int         // version of the network that played the games
	Games   int         // finished games whose samples the batch holds
	Created time.Time   // when the batch was made, by the worker's clock; zero = unknown
	Samples []data.Sample
}

// EncodeBatch encodes b in the batch format after checking every sample
// against b.Layout.
func EncodeBatch(b *Batch) ([]byte, error) {
	if err := checkEncodable(b); err != nil {
		return nil, fmt.Errorf("cluster: encode batch %s: %w", b.ID, err)
	}
	rs := data.RecordSize(b.Layout.ObsLen, b.Layout.NumActions)
	raw := make([]byte, 0, len(b.Samples)*rs)
	for i := range b.Samples {
		raw = data.AppendRecord(raw, &b.Samples[i])
	}
	enc, err := encoder()
	if err != nil {
		return nil, fmt.Errorf("cluster: encode batch: %w", err)
	}
	out := appendBatchHeader(make([]byte, 0, bMaxHeader+len(raw)/2), b, crc32.Checksum(raw, castagnoli))
	hs := len(out)
	out = enc.EncodeAll(raw, out)
	le.PutUint32(out[bOffPayload:], uint32(len(out)-hs))
	le.PutUint32(out[hs-4:], crc32.Checksum(out[:hs-4], castagnoli))
	return out, nil
}

func checkEncodable(b *Batch) error {
	if err := b.Layout.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	for _, s := range [...]string{b.ID, b.Run, b.Worker} {
		if s == "" || len(s) > maxField {
			return fmt.Errorf("%w: id, run and worker must be 1..%d bytes", ErrCorrupt, maxField)
		}
	}
	switch rs := data.RecordSize(b.Layout.ObsLen, b.Layout.NumActions); {
	case len(b.Samples) > MaxBatchSamples:
		return fmt.Errorf("%w: %d samples, max %d", ErrCorrupt, len(b.Samples), MaxBatchSamples)
	case len(b.Samples)*rs > MaxBatchBytes:
		return fmt.Errorf("%w: %d samples of %d bytes exceed %d bytes", ErrCorrupt, len(b.Samples), rs, MaxBatchBytes)
	case b.Network < 0 || b.Games < 0 || b.Games > math.MaxInt32:
		return fmt.Errorf("%w: network %d or games %d out of range", ErrCorrupt, b.Network, b.Games)
	}
	for i := range b.Samples {
		if err := checkSample(&b.Samples[i], b.Layout); err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
	}
	return nil
}

// checkSample is Layout.CheckSample wrapping ErrCorrupt.
func checkSample(s *data.Sample, l data.Layout) error {
	if err := l.CheckSample(s); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return nil
}

func appendBatchHeader(out []byte, b *Batch, payloadCRC uint32) []byte {
	strs := [...]string{b.Run, b.Worker, b.ID, b.Layout.Game, b.Layout.ObsVersion}
	hs := bMinHeader
	for _, s := range strs {
		hs += len(s)
	}
	created := int64(0)
	if !b.Created.IsZero() {
		created = b.Created.UnixNano()
	}
	out = append(out, BatchMagic...)
	out = le.AppendUint16(out, BatchVersion)
	out = le.AppendUint16(out, uint16(hs))
	out = le.AppendUint32(out, uint32(b.Layout.ObsLen))
	out = le.AppendUint32(out, uint32(b.Layout.NumActions))
	out = le.AppendUint32(out, uint32(len(b.Samples)))
	out = le.AppendUint32(out, uint32(b.Games))
	out = le.AppendUint64(out, uint64(b.Network))
	out = le.AppendUint64(out, uint64(created))
	out = le.AppendUint32(out, 0) // payload size, filled in after compression
	out = le.AppendUint32(out, payloadCRC)
	for _, s := range strs {
		out = append(append(out, byte(len(s))), s...)
	}
	return le.AppendUint32(out, 0) // header CRC, filled in last
}

// DecodeBatch decodes and checks a whole batch message. It never panics:
// whatever msg holds, it returns a batch or an error wrapping ErrBadMagic,
// ErrVersion or ErrCorrupt.
func DecodeBatch(msg []byte) (*Batch, error) {
	b, err := decodeBatch(msg)
	if err != nil {
		return nil, fmt.Errorf("cluster: decode batch: %w", err)
	}
	return b, nil
}

func decodeBatch(msg []byte) (*Batch, error) {
	b, hs, payloadCRC, err := parseBatchHeader(msg)
	if err != nil {
		return nil, err
	}
	n := int(le.Uint32(msg[bOffCount:]))
	want := n * data.RecordSize(b.Layout.ObsLen, b.Layout.NumActions)
	payload := msg[hs:]
	if err := checkFrame(payload, want); err != nil {
		return nil, err
	}
	raw := []byte{}
	if want > 0 {
		dec, err := decoder()
		if err != nil {
			return nil, err
		}
		if raw, err = dec.DecodeAll(payload, make([]byte, 0, want)); err != nil {
			return nil, fmt.Errorf("%w: payload: %w", ErrCorrupt, err)
		}
	}
	switch {
	case len(raw) != want:
		return nil, fmt.Errorf("%w: payload holds %d bytes, want %d", ErrCorrupt, len(raw), want)
	case crc32.Checksum(raw, castagnoli) != payloadCRC:
		return nil, fmt.Errorf("%w: payload checksum mismatch", ErrCorrupt)
	}
	b.Samples = data.DecodeRecords(raw, b.Layout, n)
	for i := range b.Samples {
		if err := checkSample(&b.Samples[i], b.Layout); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
	}
	return b, nil
}

// PeekBatch parses and checks only the header of a batch message, which
// costs no decompression: it returns the batch without its samples and the
// number of samples the header claims. The error wraps what DecodeBatch's
// would; DecodeBatch checks the rest.
func PeekBatch(msg []byte) (*Batch, int, error) {
	b, _, _, err := parseBatchHeader(msg)
	if err != nil {
		return nil, 0, fmt.Errorf("cluster: decode batch: %w", err)
	}
	return b, int(le.Uint32(msg[bOffCount:])), nil
}

// parseBatchHeader checks the header and returns the batch without its
// samples, the header size and the payload checksum.
func parseBatchHeader(msg []byte) (*Batch, int, uint32, error) {
	if n := min(len(msg), len(BatchMagic)); string(msg[:n]) != BatchMagic[:n] || n < len(BatchMagic) {
		return nil, 0, 0, fmt.Errorf("%w: starts %q", ErrBadMagic, msg[:n])
	}
	if len(msg) < bMinHeader {
		return nil, 0, 0, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(msg))
	}
	if v := le.Uint16(msg[bOffVersion:]); v != BatchVersion {
		return nil, 0, 0, fmt.Errorf("%w %d (this build reads version %d)", ErrVersion, v, BatchVersion)
	}
	hs := int(le.Uint16(msg[bOffHeaderSize:]))
	switch {
	case hs < bMinHeader || hs > bMaxHeader || hs > len(msg):
		return nil, 0, 0, fmt.Errorf("%w: header_size %d out of range %d..%d", ErrCorrupt, hs, bMinHeader, min(bMaxHeader, len(msg)))
	case crc32.Checksum(msg[:hs-4], castagnoli) != le.Uint32(msg[hs-4:]):
		return nil, 0, 0, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	case int(le.Uint32(msg[bOffPayload:])) != len(msg)-hs:
		return nil, 0, 0, fmt.Errorf("%w: payload_size %d, message holds %d", ErrCorrupt, le.Uint32(msg[bOffPayload:]), len(msg)-hs)
	}
	b, err := batchFields(msg[:hs])
	if err != nil {
		return nil, 0, 0, err
	}
	// A claim no zstd frame of records reaches: rejected before anything is
	// allocated or decompressed.
	if raw := int(le.Uint32(msg[bOffCount:])) * data.RecordSize(b.Layout.ObsLen, b.Layout.NumActions); raw > MaxRatio*(len(msg)-hs)+1024 {
		return nil, 0, 0, fmt.Errorf("%w: %d bytes of records claimed from a %d-byte payload (at most %d times as many)", ErrCorrupt, raw, len(msg)-hs, MaxRatio)
	}
	return b, hs, le.Uint32(msg[bOffPayloadCRC:]), nil
}

// batchFields decodes a header whose checksum has been checked.
func batchFields(h []byte) (*Batch, error) {
	var strs [5]string
	rest := h[bFixed : len(h)-4]
	for i := range strs {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return nil, fmt.Errorf("%w: header strings overrun header_size", ErrCorrupt)
		}
		n := 1 + int(rest[0])
		strs[i], rest = string(rest[1:n]), rest[n:]
		if strings.ContainsFunc(strs[i], func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return nil, fmt.Errorf("%w: control character in header string %q", ErrCorrupt, strs[i])
		}
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%w: %d stray bytes after the header strings", ErrCorrupt, len(rest))
	}
	b := &Batch{Run: strs[0], Worker: strs[1], ID: strs[2],
		Layout: data.Layout{Game: strs[3], ObsVersion: strs[4],
			ObsLen: int(le.Uint32(h[bOffObsLen:])), NumActions: int(le.Uint32(h[bOffNumActions:]))}}
	count, games, netv := le.Uint32(h[bOffCount:]), le.Uint32(h[bOffGames:]), le.Uint64(h[bOffNetwork:])
	if err := b.Layout.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	switch rs := data.RecordSize(b.Layout.ObsLen, b.Layout.NumActions); {
	case count > MaxBatchSamples || int(count)*rs > MaxBatchBytes:
		return nil, fmt.Errorf("%w: %d samples of %d bytes out of range", ErrCorrupt, count, rs)
	case games > math.MaxInt32 || netv > math.MaxInt32:
		return nil, fmt.Errorf("%w: games %d or network %d out of range", ErrCorrupt, games, netv)
	case b.ID == "" || b.Run == "" || b.Worker == "":
		return nil, fmt.Errorf("%w: empty id, run or worker", ErrCorrupt)
	}
	b.Games, b.Network = int(games), int(netv)
	if ns := int64(le.Uint64(h[bOffCreated:])); ns != 0 {
		b.Created = time.Unix(0, ns).UTC()
	}
	return b, nil
}

// checkFrame checks that the payload is one zstd frame declaring want bytes,
// before anything that size is allocated.
func checkFrame(payload []byte, want int) error {
	var zh zstd.Header
	if err := zh.Decode(payload); err != nil {
		return fmt.Errorf("%w: payload: %w", ErrCorrupt, err)
	}
	if want > 0 && (!zh.HasFCS || zh.FrameContentSize != uint64(want)) {
		return fmt.Errorf("%w: payload frame declares %d bytes (known: %v), want %d", ErrCorrupt, zh.FrameContentSize, zh.HasFCS, want)
	}
	return nil
}

// Check reports whether b belongs to the run described by want: the same
// run id, game and observation encoding and sizes. The error wraps
// ErrForeign and names the first field that differs.
func (b *Batch) Check(run string, lay data.Layout) error {
	switch {
	case b.Run != run:
		return fmt.Errorf("cluster: batch %s: %w: run %q, want %q", b.ID, ErrForeign, b.Run, run)
	case b.Layout.Game != lay.Game:
		return fmt.Errorf("cluster: batch %s: %w: game %q, want %q", b.ID, ErrForeign, b.Layout.Game, lay.Game)
	case b.Layout != lay:
		return fmt.Errorf("cluster: batch %s: %w: encoding %s (%d, %d), want %s (%d, %d)", b.ID, ErrForeign,
			b.Layout.ObsVersion, b.Layout.ObsLen, b.Layout.NumActions, lay.ObsVersion, lay.ObsLen, lay.NumActions)
	}
	return nil
}
