package data

import (
	"fmt"
	"math"
)

// AppendRecord appends s to b in the record format of shards (doc.go),
// which the cluster's batches share: the observation, the legal mask, the
// policy, outcome, root value, score and ply, little endian. It writes
// RecordSize(len(s.Obs), len(s.Policy)) bytes.
func AppendRecord(b []byte, s *Sample) []byte {
	for _, v := range s.Obs {
		b = le.AppendUint32(b, math.Float32bits(v))
	}
	b = le.AppendUint64(b, s.Legal)
	for _, v := range s.Policy {
		b = le.AppendUint32(b, math.Float32bits(v))
	}
	b = le.AppendUint32(b, math.Float32bits(s.Outcome))
	b = le.AppendUint32(b, math.Float32bits(s.RootValue))
	b = le.AppendUint32(b, math.Float32bits(s.Score))
	return le.AppendUint16(b, s.Ply)
}

// DecodeRecords decodes n records of layout l from raw, which must hold at
// least n*RecordSize(l.ObsLen, l.NumActions) bytes (the caller checks the
// size first); every sample's slices are capped views of one backing
// array. It checks no sample: Layout.CheckSample does.
func DecodeRecords(raw []byte, l Layout, n int) []Sample {
	samples := make([]Sample, n)
	row := l.ObsLen + l.NumActions
	back := make([]float32, n*row)
	for i := range samples {
		s := &samples[i]
		f := back[i*row : (i+1)*row : (i+1)*row]
		s.Obs, s.Policy = f[:l.ObsLen:l.ObsLen], f[l.ObsLen:]
		raw = readFloats(raw, s.Obs)
		s.Legal, raw = le.Uint64(raw), raw[8:]
		raw = readFloats(raw, s.Policy)
		s.Outcome = math.Float32frombits(le.Uint32(raw))
		s.RootValue = math.Float32frombits(le.Uint32(raw[4:]))
		s.Score = math.Float32frombits(le.Uint32(raw[8:]))
		s.Ply, raw = le.Uint16(raw[12:]), raw[scalarsSize:]
	}
	return samples
}

func readFloats(b []byte, dst []float32) []byte {
	for i := range dst {
		dst[i] = math.Float32frombits(le.Uint32(b[4*i:]))
	}
	return b[4*len(dst):]
}

// CheckSample reports whether s fits l: ObsLen observations, NumActions
// policy entries and no legal bit at or above NumActions. The error says
// which (the codecs wrap it in their own sentinel).
func (l Layout) CheckSample(s *Sample) error {
	switch {
	case len(s.Obs) != l.ObsLen:
		return fmt.Errorf("obs has %d values, obs_len is %d", len(s.Obs), l.ObsLen)
	case len(s.Policy) != l.NumActions:
		return fmt.Errorf("policy has %d values, num_actions is %d", len(s.Policy), l.NumActions)
	case l.NumActions < 64 && s.Legal>>uint(l.NumActions) != 0:
		return fmt.Errorf("legal mask %#x has bits at or above num_actions %d", s.Legal, l.NumActions)
	}
	return nil
}
