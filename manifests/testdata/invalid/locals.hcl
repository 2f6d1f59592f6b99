locals {
  a = "${local.b}-a" # ERROR: local.a (testdata/invalid/locals.hcl:2:3), local.b (testdata/invalid/locals.hcl:3:3)
  b = upper(local.a)
  c = local.c # ERROR: Reference cycle in locals
  d = local.missing # ERROR: No local value named "missing"
  e = local.dd # ERROR: Did you mean "d"?
  f = local # ERROR: "local" cannot be used on its own
  g = var.x # ERROR: Unknown variable
  h = "${local.a}-h"
  i = timeout # ERROR: There is no variable named "timeout"
}

repository "uses_cycle" {
  source {
    path = local.a
  }
  migrate   = ["linux->windows"]
  toolchain = local.h

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
