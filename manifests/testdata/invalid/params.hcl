preset "withparams" {
  language = "c"
  params   = { options = [], runner = "ctest" }
  platform "linux" {
    test {
      command = concat(["ctest", param.runner], param.options)
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = concat(["ctest", param.runer]) # ERROR: does not have an attribute named "runer"
      parser  = "tap"
    }
  }
}

repository "params" {
  preset  = "withparams"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  params = {
    option = ["-DX=1"] # ERROR: The preset has no parameter "option"
    runner = ["each"] # ERROR: Parameter runner must be a string
  }
  platform "windows" {
    params = "-DX" # ERROR: params must be an object
  }
}

repository "values" {
  source {
    path = "repo"
  }
  language = "c"
  migrate  = ["linux->windows"]
  params   = { flags = { a = 1 } } # ERROR: parameter flags must be a string, a number, a bool or a list of strings
  platform "linux" {
    test {
      command = ["run"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["run"]
      parser  = "tap"
    }
  }
}

repository "typo" {
  preset = "withparams"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
}

# Values that depend on a parameter are checked once it is known, at the
# preset's expression, for the repository that set it.
preset "late" {
  language = "c"
  params   = { report = "out.xml", style = "ctest" }
  platform "linux" {
    test {
      command    = ["run", report_file]
      parser     = "junit"
      report     = param.report # ERROR: report must be relative to the repository root
      skip_style = param.style # ERROR: No skip style named "ctst"
    }
  }
  platform "windows" {
    test {
      command    = ["run"]
      parser     = "junit"
      skip_style = param.style == "ctest" ? "ctest" : 3 # ERROR: No skip style named "3"
    }
  }
}

repository "late-values" {
  preset = "late"
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
  params  = { report = "/abs/out.xml", style = "ctst" }
}
