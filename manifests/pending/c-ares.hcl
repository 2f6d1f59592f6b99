# In manifests/pending, not manifests/corpus: it has given no task yet, and
# a make corpus that builds it needs hours of Windows runs under Wine on two
# cores (docs/corpus.md, a curator's first day). Build it on its own with
# osbench build manifests/pending/c-ares.hcl; it moves back with its first task.
#
# Platform code: src/lib/ares_init.c reads resolv.conf and the environment
# on POSIX, the registry and GetNetworkParams/GetAdaptersAddresses on
# Windows (ares_library_init loads iphlpapi); sockets (ioctlsocket vs fcntl)
# and the hosts file's path.
# Its tests are off by default and arestest lands in bin/. Written by osbench
# init with --runner gtest --param programs=bin/arestest (see docs/corpus.md),
# edited only by these comments and flaky_runs: each complete run is a whole
# build (a Windows one took 29 min at load 25), and the default 3 of them
# would be most of the build's time.
repository "c-ares" {
  preset = "c-cmake"
  source {
    debian = "c-ares=1.18.1-3"
    sha256 = "91d95bb080e4cd1d0d507f4693496e323a593f6611161361fd76735292bda6b6"
  }
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1
  params = {
    cmake_options = ["-DCARES_BUILD_TESTS=ON"]
    programs      = ["bin/arestest"]
    runner        = "gtest"
    targets       = ["arestest"]
  }

  platform "linux" {
    test {
      skip = [
        # Segfaults when windows->linux's mask has left ares_init's Linux
        # code quiet (the channel it builds is not one the alloc-failure
        # loop expects): a crash is no assertion, so the task would be
        # rejected as loud.
        "LibraryTest.GetAddrInfoAllocFail",
      ]
    }
  }
}
