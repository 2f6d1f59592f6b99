# Syntax errors are reported alone: what the parser skipped is not reported
# as missing.
repository "broken" {
  migrate = ["linux->windows"]
  migrate = ["windows->linux"] # ERROR: Attribute redefined
  source {
    path = "repo"
  }
  toolchain = "go1.26.8" "go1.25.0" # ERROR: Missing newline after argument
}
