repository "missing" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows", "windows->linux"]

  platform "linux" { # ERROR: Missing test block
  }
  platform "windows" {
    test { # ERROR: Missing test command
      parser = "tap"
    }
    coverage { # ERROR: Missing coverage format
      path = "lcov.info"
    }
  }
  platform "darwin" {
    test { # ERROR: Missing parser
      command = ["make", "test"]
    }
    coverage { # ERROR: Missing coverage path
      format = "lcov"
    }
  }
}
