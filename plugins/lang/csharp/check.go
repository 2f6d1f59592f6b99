package csharp

// BuildCheck is the mask step's default check for C#: compile every C#
// file outside test directories and test projects into one library with
// Mono's mcs, the conditional-compilation symbol of the target platform
// defined (WINDOWS or LINUX), so a mask that breaks the syntax, the types
// or a definite assignment fails. A repository whose non-test projects
// reference NuGet packages is not plain C#: mcs cannot resolve them, and
// the check says so in its log and passes, leaving the proof to the
// masked test run on a .NET worker. The dotnet preset gives its Windows
// platform a build command (dotnet build), which takes this check's place
// there: a Windows worker has neither bash nor mcs.
//
// Mono's class library predates .NET 5, so the check adds a file with the
// platform API of .NET 5 and later that masks keep calling
// (OperatingSystem.Is*, [SupportedOSPlatform]); the project's own types
// win over it (CS0436, silenced).
func BuildCheck(target string) []string {
	symbol := "LINUX"
	if target == "windows" {
		symbol = "WINDOWS"
	}
	return []string{"bash", "-c", checkScript, "osbench-csharp-check", symbol}
}

// checkScript runs in the repository root; $1 is the symbol to define.
const checkScript = `set -euo pipefail
symbol=$1
out=_osbench_mcs
notest=(-not -path './.git/*' -not -path '*/bin/*' -not -path '*/obj/*' -not -path "./$out/*"
  -not -ipath '*/test/*' -not -ipath '*/tests/*' -not -path '*/testdata/*' -not -path '*/__tests__/*'
  -not -path '*.Tests/*' -not -path '*.Test/*')
if find . -name '*.csproj' "${notest[@]}" -print0 | xargs -0 -r grep -l '<PackageReference' | grep -q .; then
  echo "osbench: a non-test project references NuGet packages; not plain C#, mcs check skipped (needs the .NET SDK)"
  exit 0
fi
mapfile -d '' files < <(find . -name '*.cs' "${notest[@]}" -not -name '*Tests.cs' -not -name '*Test.cs' -print0 | sort -z)
if [ ${#files[@]} -eq 0 ]; then
  echo "osbench: no C# files outside tests"
  exit 1
fi
mkdir -p "$out"
cat >"$out/platform.cs" <<'SHIM'
namespace System {
  internal static class OperatingSystem {
    public static bool IsWindows() { return false; }
    public static bool IsLinux() { return false; }
    public static bool IsMacOS() { return false; }
    public static bool IsFreeBSD() { return false; }
    public static bool IsAndroid() { return false; }
    public static bool IsIOS() { return false; }
    public static bool IsBrowser() { return false; }
    public static bool IsOSPlatform(string platform) { return false; }
    public static bool IsWindowsVersionAtLeast(int major, int minor = 0, int build = 0, int revision = 0) { return false; }
  }
}
namespace System.Runtime.Versioning {
  [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true, Inherited = false)]
  internal sealed class SupportedOSPlatformAttribute : System.Attribute { public SupportedOSPlatformAttribute(string platform) {} }
  [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true, Inherited = false)]
  internal sealed class UnsupportedOSPlatformAttribute : System.Attribute { public UnsupportedOSPlatformAttribute(string platform) {} }
  [System.AttributeUsage(System.AttributeTargets.All, AllowMultiple = true, Inherited = false)]
  internal sealed class SupportedOSPlatformGuardAttribute : System.Attribute { public SupportedOSPlatformGuardAttribute(string platform) {} }
}
SHIM
mcs -nologo -target:library -unsafe -nowarn:436 -d:"$symbol" -out:"$out/check.dll" "$out/platform.cs" "${files[@]}"
`
