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

# A repository of a broken preset is not resolved, so this one has its own
# platforms.
repository "eval-longer" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "linux" {
    test {
      command      = ["make", "test"]
      parser       = "tap"
      timeout      = "5m"
      eval_timeout = "6m" # ERROR: eval_timeout (6m) is longer than timeout (5m)
    }
  }
}

repository "eval-unreadable" {
  preset = "times"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "windows" {
    test {
      eval_timeout = "forever" # ERROR: must be a Go duration
    }
  }
}
