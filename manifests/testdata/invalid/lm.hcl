# The language-model verifier's settings: known keys only, strings only.
repository "lm" {
  source {
    path = "repo"
  }
  migrate  = ["linux->windows"] # WARNING: Undefined platform
  verifier = "lm"
  lm = { provider = "openai", modle = "gpt" } # ERROR: "modle" is not an lm setting

  platform "linux" {
    test {
      command = ["go", "test", "./..."]
      parser  = "go-test-json"
    }
  }
}
