package cfamily_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/osbench/osbench/plugins/lang/masktest"
	"github.com/osbench/osbench/plugins/mask"
	"github.com/osbench/osbench/schemas"
)

// cppHeader is a C++ class in a header named .h, as leveldb writes them
// (util/posix_logger.h): members defined after an access label, a
// constructor with an initializer list, a destructor.
const cppHeader = `#include <cstdio>
#include <string>
#ifdef TARGET
namespace demo {

class Logger {
 public:
  explicit Logger(std::FILE* fp) : fp_(fp) {
    std::fputs("open\n", fp_);
  }
  ~Logger() {
    std::fputs("close\n", fp_);
  }
  int Lines() const {
    return lines_;
  }
  std::string Name() const {
    return "logger";
  }

 private:
  std::FILE* const fp_;
  int lines_ = 0;
};

}  // namespace demo
#endif
`

// TestMaskCPPHeader masks every member body of cppHeader and compiles a
// program that uses the class: the access label is no return type, a
// constructor and a destructor return nothing, and the .h file gets C++
// zero values (a std::string by value is {}, not C's compound literal). (The label taken for a type gave
// "return (public :){0};" in a constructor, and leveldb no task.)
func TestMaskCPPHeader(t *testing.T) {
	masktest.NeedTool(t, "g++")
	regions := []schemas.VerifiedRegion{masktest.Region(9, 9), masktest.Region(12, 12), masktest.Region(15, 15), masktest.Region(18, 18)}
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "logger.h", Source: []byte(cppHeader), Regions: regions})
	if err != nil {
		t.Fatal(err)
	}
	masked := string(out.Source)
	if strings.Contains(masked, "public :") || strings.Contains(masked, "(public") {
		t.Fatalf("the access label leaked into a placeholder:\n%s", masked)
	}
	if strings.Count(masked, "return;") != 2 || !strings.Contains(masked, "return 0;") || !strings.Contains(masked, "return {};") {
		t.Errorf("want a bare return in the constructor and the destructor, 0 from Lines and {} from Name (actions %+v):\n%s", out.Actions, masked)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "logger.h"), out.Source, 0o644); err != nil {
		t.Fatal(err)
	}
	main := "#include \"logger.h\"\nint main() { demo::Logger l(stdout); return l.Lines() + int(l.Name().size()); }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.cc"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	masktest.Run(t, dir, nil, "g++", "-std=c++17", "-Wall", "-DTARGET", "-o", "prog", "main.cc")
	masktest.Run(t, dir, nil, "./prog")
}

// macroBeforeClass is googletest's gtest-port.cc around CapturedStream: a
// macro call ahead of a class under a feature guard, a constructor with
// an initializer list whose body has a platform branch.
const macroBeforeClass = `#include <string>
#define DEPRECATED_PUSH_()
DEPRECATED_PUSH_()

#if HAS_REDIRECTION
class CapturedStream {
 public:
  explicit CapturedStream(int fd) : fd_(fd) {
#ifdef _WIN32
    name_ = "win";
#else
    std::string name_template;
    name_template = "/tmp/";
    name_ = name_template;
#endif
  }
  std::string Get() const { return name_; }

 private:
  int fd_;
  std::string name_;
};
#endif

class Handle {
 public:
  ~Handle();
  int n = 0;
};

Handle::~Handle() {
#ifdef _WIN32
  n = 1;
#else
  n = 2;
#endif
}
`

// TestMaskMacroBeforeClass masks the POSIX branch of the constructor
// coarsely and compiles a program using the class where the branch is
// masked: only the constructor's body is guarded. (With the macro call
// taken for a function head, the class body was one function body and
// its placeholder left a class with no constructor and no Get.) The POSIX
// branch of an out-of-class destructor is masked too: a destructor
// returns nothing ("Handle::~Handle() { return {}; }" does not compile).
func TestMaskMacroBeforeClass(t *testing.T) {
	masktest.NeedTool(t, "g++")
	regions := []schemas.VerifiedRegion{masktest.Region(12, 14), masktest.Region(35, 35)}
	out, err := mask.Rules{}.Mask(context.Background(), mask.Input{Path: "port.cc", Source: []byte(macroBeforeClass), Regions: regions, Coarse: true})
	if err != nil {
		t.Fatal(err)
	}
	masked := string(out.Source)
	if !strings.Contains(masked, "std::string Get() const { return name_; }") {
		t.Fatalf("the class lost its members (actions %+v):\n%s", out.Actions, masked)
	}
	dir := t.TempDir()
	main := string(out.Source) + "int main() { CapturedStream c(1); Handle h; return int(c.Get().size()) + h.n; }\n"
	if err := os.WriteFile(filepath.Join(dir, "main.cc"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, defs := range [][]string{{"-DHAS_REDIRECTION"}, {"-DHAS_REDIRECTION", "-D_WIN32"}} {
		masktest.Run(t, dir, nil, "g++", append([]string{"-std=c++17", "-Wall", "-Werror"}, append(defs, "-o", "prog", "main.cc")...)...)
	}
}
