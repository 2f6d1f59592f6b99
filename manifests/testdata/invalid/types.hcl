repository "types" {
  source {
    path = ["repo"] # ERROR: path must be a string, not a list
  }
  migrate    = ["linux->windows"]
  flaky_runs = "3" # ERROR: flaky_runs must be a whole number, not a string
  language   = null # ERROR: language must not be null
  env        = ["A=1"] # ERROR: env must be a map of strings, not a list
  toolchain  = 1.26 # ERROR: toolchain must be a string, not a number

  platform "linux" {
    env = {
      GOOS   = "linux"
      GOARCH = 64 # ERROR: the value of "GOARCH" is a number
    }
    test {
      command = ["go", "test", 3] # ERROR: element 3 is a number
      parser  = "go-test-json"
      skip    = "TestA" # ERROR: skip must be a list of strings, not a string
    }
  }
  platform "windows" {
    test {
      command = { go = "test" } # ERROR: command must be a list of strings, or one string with shell set; not a map
      parser  = "tap"
      skip = [ # this list spans lines; the error points at the element
        "TestA",
        false, # ERROR: element 2 is a bool
      ]
    }
  }
}

repository "flaky" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate    = ["linux->windows"]
  flaky_runs = 0 # ERROR: flaky_runs must be at least 1
  env        = { "A=B" = "1" } # ERROR: "A=B" cannot be an environment variable name
}

repository "fraction" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate    = ["linux->windows"]
  flaky_runs = 2.5 # ERROR: flaky_runs must be a whole number, not 2.5
}

repository "split" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  split   = 0 # ERROR: split must be at least 1
}

repository "split-many" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  split   = 33 # ERROR: split is at most 32
}

repository "split-text" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  split   = "2" # ERROR: split must be a whole number, not a string
}

# The last repositories use this preset, so each has its platforms and only
# their own mistakes count.
preset "both" {
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
}
