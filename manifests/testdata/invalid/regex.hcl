preset "regexes" {
  platform "linux" {
    test {
      command = ["./run"]
      parser  = "regex"
      regex {
        pattern  = "(?P<id>\\S+ (?P<status>" # ERROR: not a valid regular expression
        statuses = { ok = "pass" }
      }
    }
  }
  platform "windows" {
    test {
      command = ["./run"]
      parser  = "regex"
      regex {
        pattern = "(?P<name>\\S+) (?P<status>\\S+)" # ERROR: must have a named group (?P<id>...)
        statuses = {
          ok   = "pass"
          FAIL = "failed" # ERROR: "failed" is not a status
        }
      }
    }
  }
  platform "darwin" {
    test {
      command = ["./run"]
      parser  = "regex"
      regex {
        pattern  = "(?P<id>\\S+) (?P<result>\\S+)" # ERROR: must have a named group (?P<status>...)
        statuses = {} # ERROR: must map at least one captured text
      }
    }
  }
}

repository "noregex" {
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]

  platform "linux" {
    test {
      command = ["./run"]
      parser  = "regex" # ERROR: Missing regex block
    }
  }
  platform "windows" {
    test {
      command = ["./run"]
      parser  = "regex"
      regex { # ERROR: Missing regex pattern
        statuses = { ok = "pass" }
      }
    }
  }
}
