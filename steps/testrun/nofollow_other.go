//go:build !unix

package testrun

// openNoFollow is empty where the flags do not exist; os.Root and the
// Lstat/Stat checks still refuse links and special files.
const openNoFollow = 0
