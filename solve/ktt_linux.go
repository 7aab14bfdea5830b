//go:build linux

package solve

import (
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeTable is the smallest table, in bytes, that bigBuckets places in
// huge pages.
const hugeTable = 64 << 20

// bigBuckets returns n buckets for a table of at least hugeTable bytes in
// anonymous memory advised into transparent huge pages (2 MiB), or nil
// (the caller then makes them on the heap): a probe of a large table
// misses the cache, and with 4 KiB pages the TLB too (each miss a page
// walk of its own); with huge pages the walks mostly go (+23% nodes a
// second in a long solve; the tablebase's levels in such memory gained
// nothing, docs/notes/2026-12-06-solver-table-in-huge-pages.md). The
// memory is unmapped when owner becomes unreachable. The buckets hold no
// pointers.
func bigBuckets(n int, owner *ktable) []kbucket {
	size := n * int(unsafe.Sizeof(kbucket{}))
	if size < hugeTable {
		return nil
	}
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil
	}
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE) // a kernel without transparent huge pages keeps 4 KiB ones
	runtime.AddCleanup(owner, func(m []byte) { unix.Munmap(m) }, mem)
	return unsafe.Slice((*kbucket)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}
