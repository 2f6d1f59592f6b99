repository "skips" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      command = concat(["go", "test"], skip_args)
      parser  = "go-test-json"
      skip    = ["TestA", "TestB"] # ERROR: skip needs skip_style
    }
  }
  platform "windows" {
    test {
      command    = concat(["go", "test"], skip_args)
      parser     = "go-test-json"
      skip       = ["TestA", "", "TestB"] # ERROR: must not contain empty test names
      skip_style = "go"
    }
  }
  platform "darwin" {
    test {
      command    = concat(["go", "test"], skip_args)
      parser     = "go-test-json"
      skip       = ["TestA", "TestA"] # ERROR: "TestA" is listed twice
      skip_style = "go"
    }
  }
}
