# Written by osbench init after one run per platform; review before use.
repository "gofrs-flock" {
  preset = "go"
  source {
    go_module = "github.com/gofrs/flock@v0.12.1"
    sum       = "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9M="
  }
  toolchain = "go1.26.8"
  migrate   = ["windows->linux", "linux->windows"]
}
