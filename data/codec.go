package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
)

// Byte offsets of the fixed part of the header (see doc.go).
const (
	offVersion    = 8
	offHeaderSize = 10
	offObsLen     = 12
	offNumActions = 16
	offRecordSize = 20
	offCount      = 24
	offIteration  = 32
	offRunTotal   = 40
	offCreated    = 48
	offPayload    = 56
	offPayloadCRC = 64
	fixedHeader   = 68                                     // bytes before the strings
	minHeaderSize = fixedHeader + 3 + 4                    // three empty strings and the CRC
	maxHeaderSize = minHeaderSize + 3*MaxString            // three full strings
	scalarsSize   = 3*4 + 2                                // outcome, root value, score, ply
	prefixSize    = offObsLen                              // magic, version, header size
	maxIteration  = math.MaxInt32                          // keeps Iteration an int everywhere
	maxCount      = MaxPayload / (4 + 8 + 4 + scalarsSize) // records of the smallest layout that fit
)

var (
	le         = binary.LittleEndian
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
	// The zstd coders are safe for concurrent EncodeAll/DecodeAll calls.
	encoder = sync.OnceValues(func() (*zstd.Encoder, error) {
		return zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithSingleSegment(true))
	})
	decoder = sync.OnceValues(func() (*zstd.Decoder, error) {
		return zstd.NewReader(nil, zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxMemory(MaxPayload), zstd.WithDecoderConcurrency(0))
	})
)

// frame is a parsed header with the facts needed to read the payload.
type frame struct {
	h           Header
	headerSize  int
	payloadSize int    // compressed bytes after the header
	payloadCRC  uint32 // CRC-32C of the uncompressed payload
}

func encodeShard(h *Header, samples []Sample) ([]byte, error) {
	if err := checkWritable(h, samples); err != nil {
		return nil, err
	}
	h.Version, h.Count, h.RecordSize = FormatVersion, len(samples), RecordSize(h.ObsLen, h.NumActions)
	raw := make([]byte, 0, h.Count*h.RecordSize)
	for i := range samples {
		raw = AppendRecord(raw, &samples[i])
	}
	enc, err := encoder()
	if err != nil {
		return nil, err
	}
	sum := crc32.Checksum(raw, castagnoli)
	out := appendHeader(make([]byte, 0, maxHeaderSize+len(raw)/2), h, 0, sum)
	hs := len(out)
	out = enc.EncodeAll(raw, out)
	le.PutUint64(out[offPayload:], uint64(len(out)-hs))
	le.PutUint32(out[hs-4:], crc32.Checksum(out[:hs-4], castagnoli))
	return out, nil
}

// checkWritable checks h and every sample against h's layout.
func checkWritable(h *Header, samples []Sample) error {
	if err := h.Layout.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSize, err)
	}
	switch {
	case len(h.Source) > MaxString:
		return fmt.Errorf("%w: source has %d bytes, max %d", ErrSize, len(h.Source), MaxString)
	case h.Iteration < 0 || h.Iteration > maxIteration:
		return fmt.Errorf("%w: iteration %d out of range 0..%d", ErrSize, h.Iteration, maxIteration)
	case h.RunTotal < 0:
		return fmt.Errorf("%w: run_total %d is negative", ErrSize, h.RunTotal)
	case h.RunTotal != 0 && h.RunTotal < int64(len(samples)):
		return fmt.Errorf("%w: run_total %d below the shard's %d samples", ErrSize, h.RunTotal, len(samples))
	case len(samples)*RecordSize(h.ObsLen, h.NumActions) > MaxPayload:
		return fmt.Errorf("%w: %d samples exceed the %d-byte payload limit", ErrSize, len(samples), MaxPayload)
	}
	for i := range samples {
		if err := checkSample(&samples[i], h.Layout); err != nil {
			return fmt.Errorf("sample %d: %w", i, err)
		}
	}
	return nil
}

// appendHeader appends the header of h; the header CRC is left for the
// caller to fill once payloadSize is known.
func appendHeader(b []byte, h *Header, payloadSize uint64, payloadCRC uint32) []byte {
	b = append(b, Magic...)
	b = le.AppendUint16(b, FormatVersion)
	b = le.AppendUint16(b, uint16(minHeaderSize+len(h.Game)+len(h.ObsVersion)+len(h.Source)))
	b = le.AppendUint32(b, uint32(h.ObsLen))
	b = le.AppendUint32(b, uint32(h.NumActions))
	b = le.AppendUint32(b, uint32(h.RecordSize))
	b = le.AppendUint64(b, uint64(h.Count))
	b = le.AppendUint64(b, uint64(h.Iteration))
	b = le.AppendUint64(b, uint64(h.RunTotal))
	b = le.AppendUint64(b, uint64(unixNano(h.Created)))
	b = le.AppendUint64(b, payloadSize)
	b = le.AppendUint32(b, payloadCRC)
	for _, s := range [...]string{h.Game, h.ObsVersion, h.Source} {
		b = append(append(b, byte(len(s))), s...)
	}
	return le.AppendUint32(b, 0)
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// checkSample is Layout.CheckSample wrapping ErrSize.
func checkSample(s *Sample, l Layout) error {
	if err := l.CheckSample(s); err != nil {
		return fmt.Errorf("%w: %w", ErrSize, err)
	}
	return nil
}

// parseHeader checks the header at the start of b, a file of fileSize
// bytes (b may hold only the header).
func parseHeader(b []byte, fileSize int64) (frame, error) {
	if n := min(len(b), len(Magic)); string(b[:n]) != Magic[:n] {
		return frame{}, fmt.Errorf("%w: starts %q", ErrBadMagic, b[:n])
	}
	if len(b) < prefixSize {
		return frame{}, fmt.Errorf("%w: %d bytes, shorter than the header", ErrTruncated, len(b))
	}
	if v := le.Uint16(b[offVersion:]); v != FormatVersion {
		return frame{}, fmt.Errorf("%w %d (this build reads version %d)", ErrVersion, v, FormatVersion)
	}
	hs := int(le.Uint16(b[offHeaderSize:]))
	switch {
	case hs < minHeaderSize || hs > maxHeaderSize:
		return frame{}, fmt.Errorf("%w: header_size %d out of range %d..%d", ErrCorrupt, hs, minHeaderSize, maxHeaderSize)
	case len(b) < hs:
		return frame{}, fmt.Errorf("%w: %d bytes, header needs %d", ErrTruncated, len(b), hs)
	case crc32.Checksum(b[:hs-4], castagnoli) != le.Uint32(b[hs-4:]):
		return frame{}, fmt.Errorf("header %w", ErrChecksum)
	}
	fr, err := headerFields(b[:hs])
	if err != nil {
		return frame{}, err
	}
	return fr, checkFrame(&fr, fileSize)
}

// headerFields decodes a header whose CRC has been checked.
func headerFields(b []byte) (frame, error) {
	h := Header{
		Version:    FormatVersion,
		Layout:     Layout{ObsLen: int(le.Uint32(b[offObsLen:])), NumActions: int(le.Uint32(b[offNumActions:]))},
		RecordSize: int(le.Uint32(b[offRecordSize:])),
	}
	count, iter := le.Uint64(b[offCount:]), le.Uint64(b[offIteration:])
	total, size := le.Uint64(b[offRunTotal:]), le.Uint64(b[offPayload:])
	if count > maxCount || iter > maxIteration || total > math.MaxInt64 || size > MaxPayload {
		return frame{}, fmt.Errorf("%w: count %d, iteration %d, run_total %d or payload_size %d out of range",
			ErrCorrupt, count, iter, total, size)
	}
	h.Count, h.Iteration, h.RunTotal = int(count), int(iter), int64(total)
	if ns := int64(le.Uint64(b[offCreated:])); ns != 0 {
		h.Created = time.Unix(0, ns).UTC()
	}
	rest := b[fixedHeader : len(b)-4]
	var strs [3]string
	for i := range strs {
		if len(rest) < 1 || len(rest) < 1+int(rest[0]) {
			return frame{}, fmt.Errorf("%w: header strings overrun header_size", ErrCorrupt)
		}
		n := 1 + int(rest[0])
		strs[i], rest = string(rest[1:n]), rest[n:]
	}
	if len(rest) != 0 {
		return frame{}, fmt.Errorf("%w: %d stray bytes after the header strings", ErrCorrupt, len(rest))
	}
	h.Game, h.ObsVersion, h.Source = strs[0], strs[1], strs[2]
	return frame{h: h, headerSize: len(b), payloadSize: int(size), payloadCRC: le.Uint32(b[offPayloadCRC:])}, nil
}

// checkFrame checks the sizes the header claims against each other and the file.
func checkFrame(fr *frame, fileSize int64) error {
	h := &fr.h
	if err := h.Layout.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSize, err)
	}
	if want := RecordSize(h.ObsLen, h.NumActions); h.RecordSize != want {
		return fmt.Errorf("%w: record_size %d, want %d for obs_len %d and num_actions %d",
			ErrSize, h.RecordSize, want, h.ObsLen, h.NumActions)
	}
	if h.Count*h.RecordSize > MaxPayload {
		return fmt.Errorf("%w: %d records of %d bytes exceed the %d-byte payload limit", ErrSize, h.Count, h.RecordSize, MaxPayload)
	}
	switch need := int64(fr.headerSize + fr.payloadSize); {
	case fileSize < need:
		return fmt.Errorf("%w: file has %d bytes, header and payload need %d", ErrTruncated, fileSize, need)
	case fileSize > need:
		return fmt.Errorf("%w: file has %d bytes, %d more than header and payload", ErrCorrupt, fileSize, fileSize-need)
	}
	return nil
}

// decodeShard decodes a whole shard file held in b.
func decodeShard(b []byte) (Header, []Sample, error) {
	fr, err := parseHeader(b, int64(len(b)))
	if err != nil {
		return Header{}, nil, err
	}
	h := fr.h
	dec, err := decoder()
	if err != nil {
		return Header{}, nil, err
	}
	want, payload := h.Count*h.RecordSize, b[fr.headerSize:]
	if err := checkFrameSize(payload, want); err != nil {
		return Header{}, nil, err
	}
	raw, err := dec.DecodeAll(payload, make([]byte, 0, want))
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded):
		return Header{}, nil, fmt.Errorf("%w: payload holds more than %d records of %d bytes", ErrSize, h.Count, h.RecordSize)
	case err != nil:
		return Header{}, nil, fmt.Errorf("%w: payload: %w", ErrCorrupt, err)
	case len(raw) != want:
		return Header{}, nil, fmt.Errorf("%w: payload holds %d bytes, header says %d records of %d",
			ErrSize, len(raw), h.Count, h.RecordSize)
	case crc32.Checksum(raw, castagnoli) != fr.payloadCRC:
		return Header{}, nil, fmt.Errorf("payload %w", ErrChecksum)
	}
	samples, err := decodeRecords(raw, h.Layout, h.Count)
	if err != nil {
		return Header{}, nil, err
	}
	return h, samples, nil
}

// checkFrameSize checks that the payload is a zstd frame declaring want
// bytes of content, before anything that size is allocated.
func checkFrameSize(payload []byte, want int) error {
	if want == 0 && len(payload) == 0 {
		return nil
	}
	var zh zstd.Header
	if err := zh.Decode(payload); err != nil {
		return fmt.Errorf("%w: payload: %w", ErrCorrupt, err)
	}
	if !zh.HasFCS || zh.FrameContentSize != uint64(want) {
		return fmt.Errorf("%w: payload frame declares %d bytes (known: %v), header says %d",
			ErrSize, zh.FrameContentSize, zh.HasFCS, want)
	}
	return nil
}

// decodeRecords decodes n records of layout l and checks each sample.
func decodeRecords(raw []byte, l Layout, n int) ([]Sample, error) {
	samples := DecodeRecords(raw, l, n)
	for i := range samples {
		if err := checkSample(&samples[i], l); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
	}
	return samples, nil
}
