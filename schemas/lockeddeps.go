package schemas

// LockedDeps is a repository's locked dependency set: what its lock files
// pin (go.sum's module versions, Cargo.lock's packages), which the fetch
// downloads before the offline builds and tests, and outside which a patch
// may add nothing. The task records it (locked_deps in tasks.jsonl).
type LockedDeps struct {
	// Digest is "sha256:" over Dependencies, one per line: equal sets
	// have equal digests, whatever the lock files' formatting.
	Digest string `json:"digest"`
	// Files are the lock files it was read from, repository-relative
	// (go.mod and go.sum; Cargo.lock), for people.
	Files []string `json:"files"`
	// Dependencies are sorted and distinct: "module@version" for Go,
	// "name@version source" for a cargo package from a registry or git.
	Dependencies []string `json:"dependencies"`
}

// LockedDepsResult is the result of the deps step that holds a tree's
// LockedDeps (JSON null when it locks nothing).
const LockedDepsResult = "deps.json"
