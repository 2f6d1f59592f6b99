locals {
  token = env("OSBENCH_TEST_UNSET") # ERROR: the environment variable "OSBENCH_TEST_UNSET" is not set
}

repository "env" {
  source {
    path = env("OSBENCH_TEST_UNSET_TOO") # ERROR: give a default
  }
  migrate   = ["linux->windows"]
  toolchain = env("OSBENCH_TEST_TOOLCHAIN", "a", "b") # ERROR: env takes a name and at most one default
  user      = local.token

  platform "linux" {
    env = { TOKEN = local.token }
    test {
      command = ["make", "test"]
      parser  = "tap"
    }
  }
  platform "windows" {
    test {
      command = ["make", "test", env("OSBENCH_TEST_UNSET")] # ERROR: is not set
      parser  = "tap"
    }
  }
}
