repository "slow" {
  preset = "go"
  source {
    path = "../repos/pathsep"
  }
  migrate = ["linux->windows"]

  platform "windows" {
    test {
      # timeout raised from 20m to 30m with eval_timeout, which cannot exceed it (eval_timeout: the first rung of 5m/10m/20m/30m/1h/2h at or above 3× the first run)
      timeout      = "30m"
      eval_timeout = "30m"
    }
  }
}
