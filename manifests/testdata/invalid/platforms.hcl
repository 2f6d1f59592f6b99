repository "platforms" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "Windows" { # ERROR: "Windows" is not a platform
  }
  platform "freebsd" { # ERROR: is not a platform
    test {
      timeout = "5 min" # ERROR: must be a Go duration
    }
  }
}
