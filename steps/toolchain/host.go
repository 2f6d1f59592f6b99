package toolchain

import "os"

// lookupHost reads a host environment variable. It is the one place a step
// reads the host environment, and only for how to reach the module proxy,
// which changes where bytes come from, never what they are.
func lookupHost(name string) (string, bool) { return os.LookupEnv(name) }
