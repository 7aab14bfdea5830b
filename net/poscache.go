package net

import (
	"math"
	"math/bits"
	"sync"
)

// posKey identifies a position: two independent 64-bit hashes of its
// observation and mask bits. Two different inputs share a key with
// probability about 2⁻¹²⁸ per pair, so a matching key is taken as a match.
type posKey struct{ a, b uint64 }

// hashRows appends the keys of n rows of obs and mask to dst.
func hashRows(dst []posKey, obs, mask []float32, n int) []posKey {
	inL, act := len(obs)/n, len(mask)/n
	for r := 0; r < n; r++ {
		dst = append(dst, hashRow(obs[r*inL:(r+1)*inL], mask[r*act:(r+1)*act]))
	}
	return dst
}

// hashRow hashes the float bits of obs then mask, in two lanes with
// different seeds and multipliers, each word mixed by multiply-xorshift.
func hashRow(obs, mask []float32) posKey {
	const (
		m1 = 0x9e3779b97f4a7c15
		m2 = 0xc2b2ae3d27d4eb4f
	)
	a := uint64(0x243f6a8885a308d3) ^ uint64(len(obs))<<32 ^ uint64(len(mask))
	b := uint64(0x13198a2e03707344) ^ uint64(len(mask))<<32 ^ uint64(len(obs))
	mix := func(w uint64) {
		a = (a ^ w) * m1
		a ^= a >> 29
		b = bits.RotateLeft64(b+w, 23) * m2
	}
	for _, x := range [2][]float32{obs, mask} {
		i := 0
		for ; i+1 < len(x); i += 2 {
			mix(uint64(math.Float32bits(x[i])) | uint64(math.Float32bits(x[i+1]))<<32)
		}
		if i < len(x) {
			mix(uint64(math.Float32bits(x[i])) | 1<<63)
		}
	}
	return posKey{fmix64(a), fmix64(b ^ a>>17)}
}

// fmix64 is MurmurHash3's finaliser.
func fmix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// posCache is a fixed-size direct-mapped table of network answers: each key
// has one slot, and a new answer evicts whatever held it. It is used by the
// batcher's worker goroutine only.
type posCache struct {
	actions int
	keys    []posKey
	gen     []uint32 // entry is valid when gen[i] == cur
	cur     uint32
	values  []float32
	priors  []float32 // len(keys) × actions
}

func newPosCache(size, actions int) *posCache {
	return &posCache{
		actions: actions,
		keys:    make([]posKey, size),
		gen:     make([]uint32, size),
		cur:     1,
		values:  make([]float32, size),
		priors:  make([]float32, size*actions),
	}
}

// slot maps a key to an entry index, uniformly over the table.
func (c *posCache) slot(k posKey) int {
	hi, _ := bits.Mul64(k.a, uint64(len(c.keys)))
	return int(hi)
}

// get copies a cached answer for k into priors and value[0] and reports
// whether there was one.
func (c *posCache) get(k posKey, priors, value []float32) bool {
	i := c.slot(k)
	if c.gen[i] != c.cur || c.keys[i] != k {
		return false
	}
	copy(priors, c.priors[i*c.actions:(i+1)*c.actions])
	value[0] = c.values[i]
	return true
}

func (c *posCache) put(k posKey, priors []float32, value float32) {
	i := c.slot(k)
	c.keys[i], c.gen[i], c.values[i] = k, c.cur, value
	copy(c.priors[i*c.actions:(i+1)*c.actions], priors)
}

// clear empties the cache in O(1) (O(size) once every 2³² clears).
func (c *posCache) clear() {
	if c.cur++; c.cur == 0 {
		clear(c.gen)
		c.cur = 1
	}
}

// lockedCache is the batcher's cache behind its lock, shared by the
// batcher's workers. With no table (the cache off) every method does
// nothing: lock and unlock take no lock, get finds nothing.
type lockedCache struct {
	mu sync.Mutex
	c  *posCache // nil when the cache is off
}

func (l *lockedCache) on() bool { return l.c != nil }

func (l *lockedCache) lock() {
	if l.c != nil {
		l.mu.Lock()
	}
}

func (l *lockedCache) unlock() {
	if l.c != nil {
		l.mu.Unlock()
	}
}

// get is posCache.get; the caller holds the lock.
func (l *lockedCache) get(k posKey, priors, value []float32) bool {
	return l.c != nil && l.c.get(k, priors, value)
}

// put is posCache.put; the caller holds the lock.
func (l *lockedCache) put(k posKey, priors []float32, value float32) {
	if l.c != nil {
		l.c.put(k, priors, value)
	}
}

// clear is posCache.clear; the caller holds the lock.
func (l *lockedCache) clear() {
	if l.c != nil {
		l.c.clear()
	}
}
