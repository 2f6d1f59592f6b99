# Every repository here uses this preset, so each has its platforms and only
# the source is wrong.
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

repository "nosource" { # ERROR: Missing source block
  preset  = "both"
  migrate = ["linux->windows"]
}

repository "empty" {
  preset = "both"
  source { # ERROR: Missing source
  }
  migrate = ["linux->windows"]
}

repository "nocommit" {
  preset = "both"
  source {
    git = "https://example.com/repo.git" # ERROR: A git source needs commit
  }
  migrate = ["linux->windows"]
}

repository "both" {
  preset = "both"
  source {
    path   = "repo"
    git    = "https://example.com/repo.git" # ERROR: either a local path or a git repository
    commit = "95a014d"
  }
  migrate = ["linux->windows"]
}

repository "shortcommit" {
  preset = "both"
  source {
    git    = "https://example.com/repo.git"
    commit = "95a01" # ERROR: 7 to 40 hex digits
  }
  migrate = ["linux->windows"]
}

repository "notahash" {
  preset = "both"
  source {
    git    = "https://example.com/repo.git"
    commit = "main" # ERROR: 7 to 40 hex digits
  }
  migrate = ["linux->windows"]
}

repository "pathcommit" {
  preset = "both"
  source {
    path   = "repo"
    commit = "95a014d0" # ERROR: commit applies to git sources
  }
  migrate = ["linux->windows"]
}

repository "emptypath" {
  preset = "both"
  source {
    path = "" # ERROR: path must not be empty
  }
  migrate = ["linux->windows"]
}
