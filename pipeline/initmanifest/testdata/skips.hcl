repository "pathsep" {
  preset = "go"
  source {
    path = "../repos/pathsep"
  }
  toolchain = "go1.26.8"
  migrate   = ["linux->windows"]

  platform "linux" {
    test {
      skip = [
        "TestLock", # timed out on linux
      ]
    }
  }

  platform "windows" {
    test {
      # eval_timeout: 3× the first run, rounded up to 5m, twice that, four times …
      eval_timeout = "7m"
      skip = [
        "TestPanics", # panicked: boom
        "TestSep",    # sep_test.go:3: got "a\b" # not a second comment
      ]
    }
  }
}
