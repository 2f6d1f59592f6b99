// Package cache is osbench's content-addressed store: a CAS of blobs named by
// the SHA-256 of their bytes, and an action cache mapping an action key (the
// hash of a step's description) to the record of what that step produced.
//
// The layout of a local cache directory:
//
//	cas/ab/abcdef...   blobs, named by the hex SHA-256 of their content
//	ac/12/123456...    action records (JSON), named by the action key
//	tmp/               temp files; every write lands here first, then is renamed
//	lock               shared by builds, exclusive for gc
//
// Every write is temp file + fsync + rename, so readers see either nothing or
// a whole entry. Readers never trust an entry: a blob whose size or digest does
// not match, or an action record that does not decode, is a miss. Several
// processes may share one directory; gc takes the lock exclusively.
//
// # Stores and the remote tier
//
// Store is the narrow interface of a blob + action store. *Cache implements
// it, and so does httpcache.Store (the Bazel HTTP remote-cache protocol:
// /ac/<key>, /cas/<sha256>); package storetest is the one suite both pass.
//
// AttachRemote puts a Store behind a local Cache: the local directory stays
// in front and is all the engine and the steps ever read from, the remote is
// consulted for what is missing and receives what succeeded:
//
//   - GetAction (and Pull) of a key missing locally fetches the record, then
//     every blob it reaches — results, side logs, tree manifests and each
//     tree member — into the local directory, each verified against its
//     digest and size, each tree checked like a local one (no escaping
//     paths, nothing below a link); the record is stored locally last.
//   - ReadBytes, CopyTo, ReadTree and Materialize of a blob missing locally
//     pull that blob (PullBlob) first.
//   - PutAction of a successful record uploads it (Push): every blob it
//     reaches that the remote lacks, then the record. Failed records are
//     never uploaded; canceled and partial runs never reach PutAction. In
//     read-only mode nothing is ever written to the remote.
//   - A remote failure is a miss, never a wrong result or a failed run: one
//     warning line per process (RemoteOptions.Warn), and after a transport
//     failure (error status, timeout, a connection that died) the remote is
//     not asked again in this process. A corrupt blob is recorded, and a
//     later Push uploads the good bytes over it.
//
// For a worker on another machine (the Temporal executor) both machines
// attach the same remote. The client sends digests, never blobs:
//
//   - inputs: Pull(ctx, inputRecord.Key) on the worker makes an input
//     step's whole result local (or PullTree/PullBlob for one digest, e.g.
//     a prediction's patch named in a step's configuration);
//   - anything the client stored without a record (a patch) reaches the
//     remote with PushBlob;
//   - results: the worker's engine stores the record with PutAction, which
//     pushes it; the client then Pulls the key the worker reported.
package cache
