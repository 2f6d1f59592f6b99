# Schemas are strict at every level, inside presets too.
preset "strict" {
  langauge = "go" # ERROR: Did you mean "language"?
  source { # ERROR: Unsupported block type
    path = "x"
  }
  migrate = ["linux->windows"] # ERROR: Unsupported argument
  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      retries = 3 # ERROR: Unsupported argument
    }
  }
}

repository "attributes" {
  source {
    path   = "repo"
    branch = "main" # ERROR: Unsupported argument
  }
  migrate   = ["linux->windows"]
  toolchain = "go1.26.8"
  timeout   = "10m" # ERROR: Unsupported argument

  platform "linux" {
    executr = "local" # ERROR: Did you mean "executor"?
    test {
      command = ["go", "test", "./..."]
      parser  = "go-test-json"
    }
    tests { # ERROR: Unsupported block type
    }
  }

  platform "windows" {
    test {
      command = ["go", "test", "./..."]
      parser  = "go-test-json"
    }
  }
}

something "else" { # ERROR: Unsupported block type
}
