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

repository "skip-globs" {
  source {
    path = "repo"
  }
  language = "rust"
  migrate  = ["linux->windows"]

  platform "linux" {
    test {
      command    = concat(["cargo", "test", "--"], skip_args)
      parser     = "libtest"
      skip       = ["tests::ok", "tests::wine_*"] # ERROR: libtest's --skip takes substrings, not globs
      skip_style = "libtest"
    }
  }
  platform "windows" {
    test {
      command    = concat(["./gtest_binary"], skip_args)
      parser     = "junit"
      skip       = ["Suite.*", "A:B"] # ERROR: cannot contain one
      skip_style = "gtest"
    }
  }
}

repository "skip-doctest" {
  source {
    path = "repo"
  }
  language = "rust"
  migrate  = ["linux->windows"]

  platform "linux" {
    test {
      command    = concat(["cargo", "test", "--", "--exact"], skip_args)
      parser     = "libtest"
      skip       = ["tests::ok", "src/lib.rs - Path::expand (line 9)"] # ERROR: a doctest cannot be skipped by name
      skip_style = "libtest"
    }
  }
  platform "windows" {
    test {
      command = ["cargo", "test"]
      parser  = "libtest"
    }
  }
}
