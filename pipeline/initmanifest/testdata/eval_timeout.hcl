repository "quick" {
  preset = "go"
  source {
    path = "../repos/pathsep"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      # a shorter one, written by hand
      eval_timeout = "3m"
    }
  }
}
