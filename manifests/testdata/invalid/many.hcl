# One file with many unrelated mistakes: a single run must report them all.
locals {
  go = "go1.26.8"
  a  = local.b # ERROR: Reference cycle in locals
  b  = local.a
}

repository "gofrs-flock" {
  preset = "go"
  source {
    git = "https://github.com/gofrs/flock" # ERROR: Missing commit
  }
  toolchain  = local.go
  migrate    = ["windows->linux", "linux->macos"] # ERROR: is not a migration direction
  flaky_runs = 0 # ERROR: at least 1
  user       = "admin" # ERROR: user must be one of

  platform "linux" {
    test {
      timeout = "ten minutes" # ERROR: must be a Go duration
      parser  = "go-test-jsn" # ERROR: Did you mean "go-test-json"?
      retries = 2 # ERROR: Unsupported argument
    }
  }

  platform "windows" {
    executor = "wyne" # ERROR: Unknown executor
    test {
      command = "go test ./..." # ERROR: Command needs a shell
      parser  = "go-test-json"
      skip    = "TestSymlink" # ERROR: list of strings
    }
  }
}

repository "gofrs-flock" { # ERROR: Duplicate repository
  preset = "og" # ERROR: Did you mean "go"?
  source {
    path = "../flock"
  }
  migrate = ["linux->windows"]
}
