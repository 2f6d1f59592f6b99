preset "users" {
  user = "admin" # ERROR: user must be one of "", "root", not "admin"
}

repository "users" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  user    = "nobody" # ERROR: user must be one of

  platform "linux" {
    user = "Administrator" # ERROR: user must be one of
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "windows" {
    user = true # ERROR: user must be a string, not a bool
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
}
