locals {
  token = env("OSBENCH_TEST_TOKEN", "t0ken")
}

repository "secrets" {
  source {
    path = "repo"
  }
  migrate    = ["linux->windows"]
  env        = { TOKEN = local.token } # WARNING: env uses env()
  secret_env = ["API_KEY", "API_KEY"]  # ERROR: API_KEY is listed twice

  platform "linux" {
    secret_env = ["A=B"] # ERROR: "A=B" cannot be an environment variable name
    test {
      command = ["make", "test", "--token=${env("OSBENCH_TEST_TOKEN", "x")}"] # WARNING: command uses env()
      parser  = "tap"
    }
  }
  platform "windows" {
    env        = { SHARED = "1" }
    secret_env = ["SHARED"] # ERROR: SHARED is in secret_env and in env
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
}
