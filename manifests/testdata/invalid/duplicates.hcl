repository "twice" {
  source {
    path = "a"
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
}

repository "twice" { # ERROR: already declared at testdata/invalid/duplicates.hcl:1:1
  source {
    path = "b"
  }
  source { # ERROR: Duplicate source block
    path = "c"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
    test { # ERROR: Duplicate test block
      command = ["make", "check"]
    }
    coverage {
      format = "lcov"
      path   = "lcov.info"
    }
    coverage { # ERROR: Duplicate coverage block
      format = "lcov"
      path   = "lcov.info"
    }
  }
  platform "linux" { # ERROR: Duplicate platform block
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      regex { # ERROR: Unexpected regex block
        pattern  = "(?P<id>\\S+) (?P<status>\\S+)"
        statuses = { ok = "pass" }
      }
      regex { # ERROR: Duplicate regex block
      }
    }
  }
}

preset "go" { # ERROR: "go" is the name of a bundled preset
}

preset "mine" {
}

preset "mine" { # ERROR: Duplicate preset
}

locals {
  a = 1
}

locals {
  a = 2 # ERROR: Duplicate local value
}
