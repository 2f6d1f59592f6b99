# Terminal check for coloured output: console mode on Windows, ioctl on Unix (terminal_check_*.go).
repository "sirupsen-logrus" {
  preset = "go"
  source {
    go_module = "github.com/sirupsen/logrus@v1.10.2"
    sum       = "h1:G2SED73/qrAu6YwbdxOD6peLkCBI3z7L+ykJFTXJBBo="
  }
  toolchain  = "go1.26.8" # Windows: the preset's go1.25.0 (Go 1.26's os.RemoveAll fails under Wine 8)
  migrate    = ["windows->linux", "linux->windows"]
  flaky_runs = 2

  platform "windows" {
    test {
      # runtime.Caller gives the Linux build path, os.Getwd() the Z:\ path, under Wine.
      # TestCallerReportingOverhead wants 5000 log calls within a second, which a
      # loaded machine under Wine does not always give: it passed and failed by turns.
      skip_under = { wine = ["TestNestedLoggingReportsCorrectCaller", "TestCallerReportingOverhead"] }
    }
  }
}
