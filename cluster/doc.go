// Package cluster spreads self-play over many machines through NATS
// JetStream: an embedded server (StartServer), connection helpers that
// reconnect forever (Connect), the run's buckets and sample stream, the
// worker's loop (Worker) and the trainer's consuming end (Hub, Ledger).
// It knows games only through env's registry and data.Layout; it never
// imports train.
//
// # What lives on the server
//
//	name                         kind          content
//	KUMALAK_RUNS                 KV bucket     "current" = run id workers join by default;
//	                                           "<run>.settings" = Settings (JSON); "<run>.best" = best network version
//	KUMALAK_WORKERS              KV bucket     "<run>.<worker>" = WorkerProgress (JSON), refreshed every
//	                                           HeartbeatEvery, expiring after WorkerTTL: the attached workers
//	KUMALAK_MODELS               object store  "<run>/v000042.kmodel" = network version 42, a .kmodel file,
//	                                           with metadata sha256 (checked on fetch, besides the store's digest)
//	KUMALAK_SAMPLES              stream        subjects "kumalak.samples.<run>.<worker>": one batch per message,
//	                                           file storage, duplicate window DedupWindow on Nats-Msg-Id
//	trainer-<run>                consumer      durable pull consumer of the run's subjects, explicit acks
//
// Run and worker ids are subject tokens (ValidName). A network version is
// the training iteration that produced the network (0 = the initial one).
//
// # Batch messages
//
// Each message holds the samples of whole finished games, played by one
// worker with one network version. Headers Nats-Msg-Id (the batch id,
// "<worker>.<session>.<seq>", where session is drawn afresh at each worker
// start), Kumalak-Run, Kumalak-Game, Kumalak-Encoding, Kumalak-Network and
// Kumalak-Worker tag it for routing and inspection; the body repeats them
// under its checksum, and only the body is trusted. Format version 1,
// integers little-endian:
//
//	offset  size  field
//	0       8     magic        "KMLKBTCH"
//	8       2     version      uint16, 1
//	10      2     header_size  uint16, bytes of the header including header_crc: 61 + the five string lengths
//	12      4     obs_len      uint32, observation length
//	16      4     num_actions  uint32, policy length, 1..64
//	20      4     count        uint32, samples, at most MaxBatchSamples and MaxBatchBytes of records
//	24      4     games        uint32, finished games the samples come from
//	28      8     network      uint64, network version that played them
//	36      8     created      int64, Unix nanoseconds by the worker's clock; 0 unknown
//	44      4     payload_size uint32, compressed bytes after the header, exactly the rest of the message
//	48      4     payload_crc  uint32, CRC-32C (Castagnoli) of the uncompressed records
//	52      1+n   run          uint8 length, bytes (no control characters, like every string)
//	.       1+n   worker       uint8 length, bytes
//	.       1+n   id           uint8 length, bytes: the batch id, equal to Nats-Msg-Id
//	.       1+n   game         uint8 length, bytes: registry name
//	.       1+n   obs_version  uint8 length, bytes: observation encoding, e.g. "togyz/1"
//	hs-4    4     header_crc   uint32, CRC-32C of header bytes [0, header_size-4)
//
// The payload is one zstd frame declaring its content size, count records
// back to back, each byte for byte a record of data's shard format (obs,
// legal mask, policy, outcome, root value, score, ply: data.RecordSize
// bytes). DecodeBatch checks all of it and never panics; the hub counts a
// message that fails (Counters.Corrupt), or that belongs to another run,
// game or encoding (Counters.Foreign), logs it and terminates it so that it
// is never redelivered.
//
// # Exactly once
//
// A worker publishes each batch until the stream confirms it; a retry
// carries the same Nats-Msg-Id, which the stream stores once within
// DedupWindow. The trainer takes batches through its durable consumer
// without acknowledging them and keeps them alive (InProgress) while it
// works. Per iteration it writes the shard holding their samples, then the
// Ledger file of their ids, then its checkpoint, and only then acknowledges
// them (Hub.Commit). A crash before the checkpoint leaves them unacked: the
// server redelivers them after AckWait to the resumed trainer, and the
// unfinished iteration's shard and ledger file are dropped. A crash after
// the checkpoint but before the acks also brings them back, and the ledger
// recognises their ids: they are acknowledged again and counted as
// duplicates, not added twice. So does an ack lost on the way (Commit
// sends them without waiting for each confirmation). The ledger remembers
// LedgerKeep iterations, far longer than AckWait; its files live as long
// as their shards, and a run's shards and ledger together say where every
// worker sample came from.
//
// # Concurrency
//
// A Worker's Run plays on many goroutines (selfplay.Pool) and publishes
// from one more; Progress may be read from any goroutine. A Hub and a
// Ledger belong to the trainer's goroutine; Hub.Counters is safe anywhere.
package cluster
