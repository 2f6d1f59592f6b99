package schemas

// ProvenanceResult is the checkout step's result holding its Provenance.
const ProvenanceResult = "provenance"

// Provenance says where a repository's code came from and what pins its
// bytes: the checkout step records it beside the tree it made, and every
// task carries it as "upstream", so a task can be rebuilt from the same
// bytes and traced to the project it was cut from.
type Provenance struct {
	// Kind is the manifest's source kind: path, git, go_module, crate,
	// debian or archive.
	Kind string `json:"kind"`
	// Repo is the upstream name: owner/name for a git host, the module path,
	// the crate or source package name, the archive's base name. Empty for a
	// local path, which has no upstream.
	Repo    string `json:"repo,omitempty"`
	Version string `json:"version,omitempty"` // module, crate or Debian version
	URL     string `json:"url,omitempty"`     // git remote or archive URL
	Commit  string `json:"commit,omitempty"`  // git: the full commit id
	// Sum is a Go module's h1: hash as the checksum database vouches for it.
	Sum string `json:"sum,omitempty"`
	// SHA256 is the hex digest of the .crate archive, the Debian .dsc file
	// or the archive.
	SHA256 string `json:"sha256,omitempty"`
	Suite  string `json:"suite,omitempty"` // Debian release searched
	// Tree is the content digest of the tree the checkout made (sha256:…
	// Merkle manifest digest), the same for every kind.
	Tree string `json:"tree"`
	// Generated lists files osbench added to the upstream tree, each with its
	// digest: a crate that ships no Cargo.lock gets one generated once and
	// kept, so its dependencies resolve the same way on every rebuild.
	Generated map[string]string `json:"generated,omitempty"`
	// Extras are the trees of extra_source blocks placed inside this one,
	// each with where it came from; they are part of Tree.
	Extras []ExtraProvenance `json:"extras,omitempty"`
}

// ExtraProvenance is one extra_source tree: its name, where it was placed
// (repository-relative) and its own provenance.
type ExtraProvenance struct {
	Name       string     `json:"name"`
	At         string     `json:"at"`
	Provenance Provenance `json:"provenance"`
}
