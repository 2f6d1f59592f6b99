# Every repository here uses this preset, so each has its platforms and only
# the source is wrong.
preset "both" {
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

repository "nosource" { # ERROR: Missing source block
  preset  = "both"
  migrate = ["linux->windows"]
}

repository "empty" {
  preset = "both"
  source { # ERROR: Missing source
  }
  migrate = ["linux->windows"]
}

repository "nocommit" {
  preset = "both"
  source {
    git = "https://example.com/repo.git" # ERROR: A git source needs commit
  }
  migrate = ["linux->windows"]
}

repository "both" {
  preset = "both"
  source {
    path   = "repo"
    git    = "https://example.com/repo.git" # ERROR: holds one kind of source
    commit = "95a014d"
  }
  migrate = ["linux->windows"]
}

repository "shortcommit" {
  preset = "both"
  source {
    git    = "https://example.com/repo.git"
    commit = "95a01" # ERROR: 7 to 40 hex digits
  }
  migrate = ["linux->windows"]
}

repository "notahash" {
  preset = "both"
  source {
    git    = "https://example.com/repo.git"
    commit = "main" # ERROR: 7 to 40 hex digits
  }
  migrate = ["linux->windows"]
}

repository "pathcommit" {
  preset = "both"
  source {
    path   = "repo"
    commit = "95a014d0" # ERROR: commit applies to git sources
  }
  migrate = ["linux->windows"]
}

repository "emptypath" {
  preset = "both"
  source {
    path = "" # ERROR: path must not be empty
  }
  migrate = ["linux->windows"]
}

repository "moduleversionless" {
  preset = "both"
  source {
    go_module = "github.com/gofrs/flock" # ERROR: a module without a version is not pinned
  }
  migrate = ["linux->windows"]
}

repository "modulequery" {
  preset = "both"
  source {
    go_module = "github.com/gofrs/flock@latest" # ERROR: not a full semantic version
  }
  migrate = ["linux->windows"]
}

repository "modulepath" {
  preset = "both"
  source {
    go_module = "github.com/Gofrs//flock@v0.12.1" # ERROR: malformed module path
  }
  migrate = ["linux->windows"]
}

repository "modulesum" {
  preset = "both"
  source {
    go_module = "github.com/gofrs/flock@v0.12.1"
    sum       = "sha256:deadbeef" # ERROR: h1: hash as go.sum writes it
  }
  migrate = ["linux->windows"]
}

repository "modulesha" {
  preset = "both"
  source {
    go_module = "github.com/gofrs/flock@v0.12.1"
    sha256    = "0000000000000000000000000000000000000000000000000000000000000000" # ERROR: sha256 applies to crate, debian, archive sources, not to a go_module source
  }
  migrate = ["linux->windows"]
}

repository "crateversion" {
  preset = "both"
  source {
    crate = "filetime@v0.2.25" # ERROR: not a full semantic version such as 1.2.3
  }
  migrate = ["linux->windows"]
}

repository "cratename" {
  preset = "both"
  source {
    crate = "9lives@1.0.0" # ERROR: is not a crate name
  }
  migrate = ["linux->windows"]
}

repository "cratesha" {
  preset = "both"
  source {
    crate  = "filetime@0.2.25"
    sha256 = "xyz" # ERROR: 64 hex digits
  }
  migrate = ["linux->windows"]
}

repository "debianversionless" {
  preset = "both"
  source {
    debian = "libyaml" # ERROR: a package without a version is not pinned
  }
  migrate = ["linux->windows"]
}

repository "debianname" {
  preset = "both"
  source {
    debian = "LibYAML=0.2.5-1" # ERROR: not a Debian source package name
  }
  migrate = ["linux->windows"]
}

repository "debianpackaging" {
  preset = "both"
  source {
    debian    = "libyaml=0.2.5-1"
    packaging = "yes" # ERROR: must be true or false
  }
  migrate = ["linux->windows"]
}

repository "packagingelsewhere" {
  preset = "both"
  source {
    crate     = "filetime@0.2.25"
    packaging = true # ERROR: packaging applies to debian sources, not to a crate source
  }
  migrate = ["linux->windows"]
}

repository "archivedigestless" {
  preset = "both"
  source {
    archive = "https://example.com/x.tar.gz" # ERROR: An archive source needs sha256
  }
  migrate = ["linux->windows"]
}

repository "archivescheme" {
  preset = "both"
  source {
    archive = "ftp://example.com/x.tar.gz" # ERROR: http, https or file URL
    sha256  = "0000000000000000000000000000000000000000000000000000000000000000"
  }
  migrate = ["linux->windows"]
}

repository "twokinds" {
  preset = "both"
  source {
    crate     = "filetime@0.2.25"
    go_module = "github.com/gofrs/flock@v0.12.1" # ERROR: holds one kind of source
  }
  migrate = ["linux->windows"]
}

repository "summodule" {
  preset = "both"
  source {
    path = "repo"
    sum  = "h1:MTLVXXHf8ekldpJk3AKicLij9MdwOWkZ+a/jHHZby9E=" # ERROR: a path source is used as it is on disk
  }
  migrate = ["linux->windows"]
}

repository "extras" {
  preset = "both"
  source {
    path = "repo"
  }
  extra_source "gtest" {
    debian = "googletest=1.12.1-0.2"
    at     = "../gtest" # ERROR: a clean path below the repository's root
  }
  extra_source "gtest" { # ERROR: is already declared
    path = "gtest"
    at   = "test/gtest"
  }
  extra_source "fmt" {
    path = "fmt"
    at   = "/abs" # ERROR: a directory inside the repository
  }
  extra_source "noat" { # ERROR: The argument "at" is required
    path = "x"
  }
  extra_source "nokind" { # ERROR: Missing source
    at = "third_party/x"
  }
  extra_source "inner" {
    path = "inner"
    at   = "third_party/x/inner" # ERROR: trees may not nest
  }
  migrate = ["linux->windows"]
}
