preset "times" {
  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      timeout = "10 minutes" # ERROR: must be a Go duration
    }
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      timeout = "0s" # ERROR: timeout must be positive
    }
  }
  platform "darwin" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      timeout = 600 # ERROR: timeout must be a string, not a number
    }
  }
}

repository "negative" {
  preset = "times"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      timeout = "-5m" # ERROR: timeout must be positive
    }
  }
}
