repository "has space" { # ERROR: Invalid repository name
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
}

preset "../etc" { # ERROR: Invalid preset name
}
