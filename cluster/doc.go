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
//	KUMALAK_MODELS               object store  "<run>/v000042.kmodel" = network version 42, a .kmodel file,
//	                                           with metadata sha256 (checked on fetch, besides the store's digest)
//	KUMALAK_SAMPLES              stream        subjects "kumalak.samples.<run>.<worker>": one batch per message,
//	                                           file storage, duplicate window DedupWindow on Nats-Msg-Id
//	trainer-<run>                consumer      durable pull consumer of the run's subjects, explicit acks
//	kumalak.heartbeat.<run>.<w>  subject       plain messages: WorkerProgress (JSON) every HeartbeatEvery;
//	                                           the trainer counts a worker attached for WorkerTTL
//
// # Credentials
//
// Each worker signs in with a user NKey of its own, issued for one worker
// id of one run (IssueCredentials, kept by the worker as WorkerCreds); the
// run's Roster holds the public keys. The embedded server admits an active
// key with WorkerPermissions only: publish on its own batch and heartbeat
// subjects, read its run's settings and the networks by direct gets, and
// subscribe to its own inbox prefix (InboxPrefix) alone; it rereads the
// roster every RosterPoll and cuts off a revoked key (RevokeCredentials).
// The trainer connects in-process with a secret of the server's own, its
// replies on TrainerInbox. OpenHost holds the rules for where a trainer's
// server is: embedded, standalone or none.
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
// DedupWindow. The worker waits for each confirmation before its next
// batch, so a session's batches lie in the stream in sequence order.
//
// The trainer's Ledger, not the server's acknowledgements, says what was
// handled: the Marks, written with each iteration's shard before its
// checkpoint, hold a stream position (every message of the run up to it
// was taken, dropped as stale or surplus, rejected or recognised) and, per worker
// session, the highest batch sequence handled. A hub (OpenHub) deletes the
// run's consumer and makes it anew, delivering from the message after the
// position, in stream order. So:
//
//   - a crash before the checkpoint drops the unfinished iteration's
//     ledger and marks files; its messages lie after the checkpointed
//     position and are delivered again, in order, and taken once;
//   - a crash after the checkpoint, before or after the acks (the server
//     persists acks asynchronously, and may lose them), loses nothing and
//     repeats nothing: the new consumer starts after the checkpointed
//     position, whatever the server remembers and however long ack_wait is;
//   - an ack lost while the trainer lives brings its message back after
//     AckWait: its stream sequence is at or before the position, and it is
//     acknowledged again and counted a duplicate, never stale;
//   - a batch stored a second time (a re-send after DedupWindow) is
//     recognised by its session's sequence and counted a duplicate;
//   - a delivery that went missing (a fetch cut short) would come back out
//     of order: the hub checks the consumer's delivery sequence of every
//     message, and on a gap restarts the consumer after its position
//     (Counters.Resyncs).
//
// Rejected, stale, surplus and duplicate messages are acknowledged
// (rejected ones terminated) together with the taken batches, at Commit,
// after the checkpoint. Every stored message is thus counted once, in the
// metrics of the iteration that checkpointed it: taken, stale, surplus or
// rejected (or, for a second stored copy, duplicate). A take holds at most HubConfig.MaxTake
// samples, exactly: a batch that does not fit waits, already fetched and
// kept alive, for the next take, with everything after it; workers make
// batches of at most Settings.MaxBatch samples, which is no more than the
// cap, and larger ones are rejected. With HubConfig.MaxBacklog, a take
// that would leave more than that many samples waiting drops the oldest
// waiting batches as surplus and takes the newest (the trainer's surplus
// policy; Hub.SetMaxTake sizes each take to what the trainer learns).
//
// Cheap checks come first: a redelivery is recognised from its stream
// sequence, a message is rejected or dropped as stale from its headers and
// batch header alone (format, run, game, encoding, the worker named by the
// subject, a network not newer than the newest published, the claimed
// count within Settings.MaxBatch and MaxRatio times the payload), and only
// a batch to be taken is decompressed and checked whole.
//
// # Concurrency
//
// A Worker's Run plays on many goroutines (selfplay.Pool), publishes from
// one more and asks the server for new networks from another, so that its
// games never wait on the server; Progress may be read from any goroutine.
// A Hub and a Ledger belong to the trainer's goroutine; Hub.Counters and
// Hub.Workers are safe anywhere.
package cluster
