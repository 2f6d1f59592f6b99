# OS APIs in build-tagged files: hidden and read-only attributes, home directory.
repository "fsapi" {
  preset = "go"
  source {
    path = "../../testdata/repos/fsapi" # relative to this manifest file
  }
  toolchain  = "go1.26.8"
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 1

  platform "linux" {
    test {
      timeout = "5m"
    }
  }

  platform "windows" {
    toolchain = "go1.25.0"
    test {
      # Wine 8 cannot do what these need (DESIGN §5): symlinks are a stub,
      # read-only files cannot be removed, and os.SameFile on ReadDir entries
      # never matches (TestFindEntry then panics and would take the whole
      # package binary, and its coverage, down with it).
      skip_under = { wine = ["TestSymlinkResolve", "TestIsWritable", "TestFindEntry"] }
    }
  }
}
