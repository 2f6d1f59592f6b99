repository "misspelt" {
  preset = "og" # ERROR: Unknown preset
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
}

repository "typed" {
  preset = 3 # ERROR: preset must be a string, not a number
  source {
    path = "repo"
  }
  migrate = ["linux->windows"]
}
