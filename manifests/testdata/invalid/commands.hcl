repository "commands" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows", "windows->linux"]

  platform "linux" {
    build {
      command = "make all" # ERROR: Command needs a shell
    }
    test {
      command = ["make", "test"]
      dir     = "../outside" # ERROR: dir must stay inside the repository
      parser  = "tap"
    }
  }
  platform "windows" {
    build {
      command = [] # ERROR: command must not be empty
      dir     = "C:\\src" # ERROR: dir must be relative to the repository root
    }
    test {
      command = ["", "test"] # ERROR: the program name
      shell   = "zsh" # ERROR: shell must be one of
      dir     = "/abs" # ERROR: must be relative to the repository root, not absolute
      parser  = "tap"
    }
    coverage {
      format = "lcov"
      path   = "sub/../.." # ERROR: path must stay inside the repository
    }
  }
  platform "darwin" {
    build { # ERROR: Missing build command
      dir = "sub"
    }
    test {
      command = "  " # ERROR: command must not be empty
      shell   = "bash"
      parser  = "tap"
    }
  }
}

repository "listwithshell" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      command = ["make", "test"] # ERROR: command must be one script string
      shell   = "bash"
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = concat(["make"], skip_argz) # ERROR: There is no variable named "skip_argz"
      parser  = "tap"
    }
  }
}
