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

repository "nomigrate" { # ERROR: Missing migrate
  preset = "both"
  source {
    path = "repo"
  }
}

repository "arrow" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux=>windows"] # ERROR: is not a migration direction
}

repository "self" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = [
    "linux->windows",
    "linux->linux", # ERROR: migrates a platform to itself
  ]
}

repository "unknownos" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->freebsd"] # ERROR: is not a migration direction
}

repository "twice" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->windows", "windows->linux", "linux->windows"] # ERROR: is listed twice
}

repository "empty" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = [] # ERROR: at least one direction
}

repository "string" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = "linux->windows" # ERROR: migrate must be a list of strings, not a string
}

repository "undefined" {
  preset = "both"
  source {
    path = "repo"
  }
  migrate = ["linux->windows", "darwin->linux"] # WARNING: needs a platform block for "darwin"
}
