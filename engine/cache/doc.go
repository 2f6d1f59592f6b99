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
package cache
