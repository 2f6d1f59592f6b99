package cache

import "io/fs"

// SkipVCS is the SkipFunc that leaves version-control metadata (.git, .hg,
// .svn) out of a tree: a repository's snapshot is its files, never its
// history, whichever step takes it.
func SkipVCS(rel string, d fs.DirEntry) bool {
	return d.IsDir() && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn")
}
