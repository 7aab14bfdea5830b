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

// hugeMem returns size bytes of zeroed anonymous memory advised into
// transparent huge pages, or nil when it is smaller than hugeTable or
// cannot be had; free unmaps it. (Measured: copying the 24-stone
// tablebase's large levels into such memory did not speed a solve up;
// the table's huge pages did.)
func hugeMem(size int) (mem []byte, free func() error) {
	if size < hugeTable {
		return nil, nil
	}
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, nil
	}
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE) // a kernel without transparent huge pages keeps 4 KiB ones
	return mem, func() error { return unix.Munmap(mem) }
}

// bigBuckets returns n buckets for a table of at least hugeTable bytes in
// anonymous memory advised into transparent huge pages (2 MiB), or nil
// (the caller then makes them on the heap): a probe of a large table
// misses the cache, and with 4 KiB pages the TLB too (each miss a page
// walk of its own); with huge pages the walks mostly go. The memory is
// unmapped when owner becomes unreachable. The buckets hold no pointers.
func bigBuckets(n int, owner *ktable) []kbucket {
	mem, free := hugeMem(n * int(unsafe.Sizeof(kbucket{})))
	if mem == nil {
		return nil
	}
	runtime.AddCleanup(owner, func(f func() error) { f() }, free)
	return unsafe.Slice((*kbucket)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}
