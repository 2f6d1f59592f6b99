# skip_under: per executor, tests left out only under it.
repository "skips" {
  preset = "go"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  platform "windows" {
    test {
      skip = ["TestEverywhere"]
      skip_under = {
        wyne  = ["TestSymlink"] # ERROR: no executor named "wyne" is registered. Did you mean "wine"?
        local = []
      }
    }
  }
  platform "linux" {
    test {
      skip_under = ["TestA"] # ERROR: skip_under must be a map from executor to tests
    }
  }
}

repository "entries" {
  preset = "go"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  platform "windows" {
    test {
      skip = ["TestEverywhere"]
      skip_under = {
        wine = [
          "TestSymlink",
          "TestEverywhere", # ERROR: "TestEverywhere" is in skip already
        ]
      }
    }
  }
  platform "linux" {
    test {
      skip_under = {
        local = ["TestA", ""] # ERROR: skip_under.local must not contain empty test names
      }
    }
  }
}

repository "styles" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  platform "linux" {
    test {
      command    = ["cargo", "test"]
      parser     = "libtest"
      skip_style = "libtest"
      skip_under = {
        local = ["fs::*"] # ERROR: libtest's --skip takes substrings, not globs
      }
    }
  }
  platform "windows" {
    test {
      command = ["make", "test"]
      parser  = "tap"
      skip_under = {
        wine = ["symlink"] # ERROR: skip_under needs skip_style
      }
    }
  }
}
