// Package data holds kumalak's training data: the Sample record, shard files
// of samples on disk, the replay window of the latest samples, and the
// batches the trainer draws from it. It imports only the standard library
// and zstd, and knows nothing of games: a Layout (game name, observation
// encoding version, sizes) is all it checks samples against.
//
// # Perspective
//
// Every value of a Sample and of a Batch row (outcome, root value, score,
// policy, observation) is from the view of the player to move in that
// position. In mangala the mover can move twice in a row, so nothing here
// assumes that consecutive samples alternate sides.
//
// # Shard files
//
// A shard holds the samples of one training iteration. It is written
// atomically (WriteShard: temporary file, fsync, rename, directory fsync),
// named ShardName(iteration) = "shard-000042.kshard", and checked in full
// on reading: ReadShard refuses, with an error naming the file and the fault,
// a bad magic (ErrBadMagic), another format version (ErrVersion), a short
// file (ErrTruncated), a checksum mismatch (ErrChecksum), inconsistent sizes
// (ErrSize) and anything else malformed (ErrCorrupt).
//
// Format version 1. All integers little-endian; floats IEEE-754 float32.
// The header:
//
//	offset  size  field
//	0       8     magic        "KMLKSHRD"
//	8       2     version      uint16, 1
//	10      2     header_size  uint16, bytes of the whole header including header_crc: 75 + the three string lengths
//	12      4     obs_len      uint32, observation length, 1..65536
//	16      4     num_actions  uint32, policy length, 1..64
//	20      4     record_size  uint32, bytes per record, 4·obs_len + 4·num_actions + 22
//	24      8     count        uint64, samples in the shard
//	32      8     iteration    uint64, training iteration that produced them (the name's number)
//	40      8     run_total    uint64, samples of the run up to and including this shard; 0 unknown
//	48      8     created      int64, Unix time in nanoseconds when written; 0 unknown
//	56      8     payload_size uint64, compressed payload bytes after the header
//	64      4     payload_crc  uint32, CRC-32C (Castagnoli) of the uncompressed payload
//	68      1+n   game         uint8 length n, then n bytes: registry name, e.g. "togyz"
//	.       1+n   obs_version  uint8 length, bytes: observation encoding, e.g. "togyz/1"
//	.       1+n   source       uint8 length, bytes: free text about the producer
//	hs-4    4     header_crc   uint32, CRC-32C of header bytes [0, header_size-4)
//
// The payload follows, payload_size bytes exactly ending the file: one zstd
// frame that declares its content size, count·record_size bytes (at most
// 1 GiB), and holds the count records back to back. It is empty when count
// is 0. One record:
//
//	offset          size          field
//	0               4·obs_len     obs         float32 × obs_len
//	4·O             8             legal       uint64, bit a set when action a is legal; no bit >= num_actions
//	4·O+8           4·num_actions policy      float32 × num_actions, visit distribution
//	4·O+8+4·A       4             outcome     float32, final result for the mover: +1, 0, -1
//	4·O+12+4·A      4             root_value  float32, search value for the mover, [-1, 1]
//	4·O+16+4·A      4             score       float32, final store difference / stones, mover's view
//	4·O+20+4·A      2             ply         uint16, plies before the position
//
// Floats stay float32: zstd already brings a 218-byte record (40 features,
// 9 actions) to about 82 bytes on disk (BenchmarkWriteShard), so float16
// would save little and would round features to 11 significant bits.
//
// # Replay window
//
// A Window holds the latest samples of the run, its size growing with the
// run's total as in KataGo (see WindowConfig). It copies what it is given
// into recycled fixed-size chunks, so memory stays within the window size
// plus two chunks however much is added. Sample and FillBatch draw uniformly
// without replacement within a call, from an injected *rand.Rand; FillBatch
// allocates nothing.
//
// The window survives restarts through its shard directory: AddShard writes
// each iteration's shard, with the run total, before adding it; LoadWindow
// rebuilds the same window from the directory, and Prune deletes shards that
// have fallen wholly out of it. A directory holds the shards of one run.
//
// # Concurrency
//
// Shard functions are safe for concurrent use on different files; a reader
// never sees a partly written shard. A Window is not safe for concurrent use.
package data
