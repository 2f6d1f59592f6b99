# The dotnet preset: how osbench builds, tests and measures a .NET solution
# or project with `dotnet test`.
#
# The TRX logger writes each test project's results to a .trx file, which
# the trx parser reads from stdout (the files are printed after the run; the
# build and test output goes to stderr, into the log). Coverage comes from
# the coverlet collector ("XPlat Code Coverage", the coverlet.collector
# package the test projects reference) as Cobertura XML; each test project
# writes its own file under a generated directory, and they are
# concatenated into one file for the cobertura importer. A project that does
# not build fails the command before any result is written.
#
# dotnet test has no flag osbench's skip lists can be spelled in, so this
# preset sets no skip_style: a repository that must leave tests out writes
# its own test command with a --filter.
#
# Windows is a real Windows machine (the local executor of an osbench
# running there, or of a worker): the .NET runtime is not usable under Wine.
#
# What runs where. Without the .NET SDK (this machine): verification,
# masking (plugins/lang/csharp) and, for a Linux target, the mask step's
# compile check, which compiles the masked repository's non-test C# with
# Mono's mcs (scripts/deps.sh installs mono-mcs) with LINUX defined, when
# no non-test project references NuGet packages (otherwise the check logs
# that it cannot and passes). For a Windows target the check is the
# platform's build command below, `dotnet build` on the Windows worker. What needs a .NET worker: the test
# runs below (so coverage, labels, tasks and evaluation) — `dotnet` on
# Linux, and a real Windows machine running `osbench worker` for Windows.
# The test commands are checked only by `osbench validate`: no example
# manifest uses the preset and they have never run here.
locals {
  # Linux, in bash. $1: the coverage file.
  dotnet_test_bash = <<-EOT
    coverage_file=$1
    export DOTNET_CLI_HOME="$PWD/_osbench_dotnet_home" NUGET_PACKAGES="$PWD/_osbench_nuget" \
      DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
    status=0
    dotnet test --logger trx --results-directory _osbench_results --collect "XPlat Code Coverage" >&2 || status=$?
    find _osbench_results -name '*.trx' -print0 | sort -z | xargs -0 -r cat
    find _osbench_results -name coverage.cobertura.xml -print0 | sort -z | xargs -0 -r cat >"$coverage_file"
    exit "$status"
  EOT
}

preset "dotnet" {
  language = "csharp"

  platform "linux" {
    executor = "local"

    test {
      command      = ["bash", "-eo", "pipefail", "-c", local.dotnet_test_bash, "dotnet-test", coverage_file]
      parser       = "trx"
      timeout      = "15m"
      eval_timeout = "8m"
    }

    coverage {
      format = "cobertura"
      path   = "_osbench_coverage.xml"
    }
  }

  platform "windows" {
    executor = "local"

    # The mask step's build check on the Windows worker (and the test
    # step's build before `dotnet test`, which then finds it done): the
    # default check, Mono's mcs under bash, is for a Linux host.
    build {
      command = ["dotnet", "build", "--nologo"]
    }

    test {
      # PowerShell takes no script arguments after -Command, so the coverage
      # file is written into the script as a single-quoted string.
      command = [
        "pwsh", "-NoProfile", "-NonInteractive", "-Command",
        <<-EOT
          $env:DOTNET_CLI_TELEMETRY_OPTOUT = '1'
          $env:DOTNET_NOLOGO = '1'
          dotnet test --logger trx --results-directory _osbench_results --collect 'XPlat Code Coverage' 2>&1 |
            ForEach-Object { [Console]::Error.WriteLine($_) }
          $status = $LASTEXITCODE
          Get-ChildItem _osbench_results -Recurse -Filter *.trx | Sort-Object FullName | Get-Content -Raw
          Get-ChildItem _osbench_results -Recurse -Filter coverage.cobertura.xml | Sort-Object FullName |
            Get-Content -Raw | Set-Content -NoNewline -Encoding utf8 '${replace(coverage_file, "'", "''")}'
          exit $status
        EOT
      ]
      parser       = "trx"
      timeout      = "15m"
      eval_timeout = "8m"
    }

    coverage {
      format = "cobertura"
      path   = "_osbench_coverage.xml"
    }
  }
}
