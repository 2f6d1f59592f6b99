# Plugin names the registries do not know.
repository "names" {
  source {
    path = "repo"
  }
  migrate  = ["linux->windows"]
  verifier = "rulez" # ERROR: Did you mean "rules"?

  platform "linux" {
    executor = "dockerr" # ERROR: Unknown executor
    test {
      command    = ["go", "test", "./..."]
      parser     = "go-tst-json" # ERROR: Did you mean "go-test-json"?
      skip       = ["TestA"]
      skip_style = "pytest" # ERROR: Unknown skip style
    }
    coverage {
      format = "jacoco" # ERROR: Unknown coverage format
      path   = "cover.out"
    }
  }

  platform "windows" {
    executor = "" # ERROR: executor must not be empty
    test {
      command = ["go", "test", "./..."]
      parser  = "tap"
    }
  }
}
